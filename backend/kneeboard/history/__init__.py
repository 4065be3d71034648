"""Campaign history at scale: list filters, pages and cursors in SQL, briefs without points."""
