def summary(values):
    print(len(values))
    print(sorted(values))
    print(max(values), min(values))
    return abs(-4), str(42)


def main():
    values = [3, 1, 2]
    print(summary(values))


main()
