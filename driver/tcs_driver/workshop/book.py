"""placeholder"""
DESCRIPTION = ""
def add_arguments(p): pass
