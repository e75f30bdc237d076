open class Animal {
    fun breathe(): String = "breathing"
}

class Dog : Animal()

fun main() {
    val d = Dog()
    println(d.breathe())
}
