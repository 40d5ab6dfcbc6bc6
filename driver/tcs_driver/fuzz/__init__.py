"""`./tcs fuzz`: differential fuzzing of the model against live OTP, with shrinking.

gen       seeded, reproducible scenarios over the whole scenario language (a table of step kinds)
state     what the generator knows of the scenario it writes (FuzzState), shared with badcalls and busyreload
steer     rule coverage of the corpus, and choosing the candidate that covers what it lacks
shrink    reducing a disagreeing scenario to a minimal one that disagrees the same way
campaign  generating, checking with the model, running live in batches, grouping, replaying alone
report    text, JSON and HTML reports of a campaign
"""
