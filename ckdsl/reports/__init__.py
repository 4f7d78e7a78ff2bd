"""What the commands print, computed as data and text lines: the board description, a
game's report, the progress cards' facts, the bots, validation and localization findings,
scenario outcomes and the DSL's vocabulary.

The command line only parses arguments, calls these functions and prints what they
return, so what a user reads is tested here without Click (tests/test_reports_*.py), and
another front end (a notebook, a web page) gets the same data. A function named ``*_json``
returns plain data for ``--json``; one named ``*_lines`` the lines of the text form.
"""
