sq = lambda x: x * x  # noqa: E731
add = lambda a, b: a + b  # noqa: E731


def main():
    print(sq(3))
    print(add(2, 5))


main()
