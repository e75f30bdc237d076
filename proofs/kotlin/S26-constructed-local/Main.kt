class Lamp {
    fun on(): String = "on"
}

fun main() {
    val lamp = Lamp()
    var other: Lamp = Lamp()
    println(lamp.on())
    println(other.on())
}
