"""Rich tables for the terminal, drawn from the views rulesets give."""
