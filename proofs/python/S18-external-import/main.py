import json
import os


def main():
    print(os.path.join("a", "b"))
    print(json.dumps({"k": 1}))


main()
