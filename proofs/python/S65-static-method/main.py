class Units:
    @staticmethod
    def to_cm(inches):
        return inches * 2.54

    @classmethod
    def name(cls):
        return "Units"


print(Units.to_cm(2))
print(Units.name())
