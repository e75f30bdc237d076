fun helper(): String {
    return "helper"
}

fun main() {
    println(helper())
}
