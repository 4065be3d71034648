"""Device profiles: user-uploaded protocol descriptions for devsim."""
