def start():
    print("start")


def stop():
    print("stop")


actions = {"start": start, "stop": stop}


def handle(command):
    actions[command]()


for cmd in ["start", "stop"]:
    handle(cmd)
