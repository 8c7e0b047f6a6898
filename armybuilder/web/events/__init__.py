"""The tournament pages: events, registrations, submissions, the dashboard and the printed pack."""
