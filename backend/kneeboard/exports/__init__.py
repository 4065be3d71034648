"""Reports that travel: one self-contained HTML file, or Markdown with SVG charts, of a report or a comparison."""
