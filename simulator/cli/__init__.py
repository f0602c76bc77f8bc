"""The ``electsim`` command line, one module per command."""
