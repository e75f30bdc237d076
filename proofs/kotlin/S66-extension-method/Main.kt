class Shape(val name: String) {
    fun describe(): String = "member " + name
}

fun Shape.describe(): String = "extension " + name

fun Shape.shout(): String = describe().uppercase()

fun String.twice(): String = this + this

fun main() {
    val s = Shape("sq")
    println(s.shout())
    println(s.describe())
    println("ab".twice())
}
