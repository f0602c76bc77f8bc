"""What people read: text, timeline charts, state graphs, the HTML report, calendar files."""
