handlers = []


def register(fn):
    handlers.append(fn)


def on_start():
    print("on_start")


def by_length(s):
    return len(s)


register(on_start)
print(sorted(["ccc", "a", "bb"], key=by_length))
for handler in handlers:
    handler()
