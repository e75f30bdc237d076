package lib

fun greet(): String = "hello from lib"

object Tools {
    fun version(): String = "1.0"
}
