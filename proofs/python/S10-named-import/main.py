from lib import f, g

f()
g()
