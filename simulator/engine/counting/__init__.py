"""Counting the vote: the results each method declares and what follows them, one module per
question (consulting a table, where candidates stand, declaring, majorities, ties, runoffs and the
decision of each round)."""
