object Registry {
    fun count(): Int = 3
}

class Temperature(val degrees: Double) {
    companion object {
        fun freezing(): Temperature = Temperature(0.0)
    }
}

fun main() {
    println(Registry.count())
    println(Temperature.freezing().degrees)
}
