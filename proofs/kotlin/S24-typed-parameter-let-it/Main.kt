class Greeter {
    fun hello(): String = "hello"
}

fun find(): Greeter? = Greeter()

fun main() {
    find()?.let { println(it.hello()) }
    Greeter().also { g -> println(g.hello()) }
}
