def collect(items: list, text: str):
    items.append(text.upper())
    print(items)


def count(table: dict, key: str):
    table[key] = table.get(key, 0) + 1
    print(sorted(table.items()))


collect([], "abc")
count({"a": 1}, "b")
