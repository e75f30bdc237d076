registry = []


def register(fn):
    registry.append(fn.__name__)
    return fn


@register
def task():
    print("task runs")


task()
print(registry)
