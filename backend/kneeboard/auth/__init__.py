"""Accounts, roles, browser sessions and API tokens; the one place requests are authenticated."""
