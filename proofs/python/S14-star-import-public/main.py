def _hidden():
    print("main._hidden")


from lib import *  # noqa: E402,F403

f()
_hidden()
