def g():
    print("main.g")


from lib import *  # noqa: E402,F403

f()
g()
