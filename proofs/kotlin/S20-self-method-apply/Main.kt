class Box {
    val items = ArrayList<String>()

    fun add(s: String) {
        items.add(s)
    }
}

fun main() {
    val b = Box().apply {
        add("a")
        add("b")
    }
    println(b.items.size)
}
