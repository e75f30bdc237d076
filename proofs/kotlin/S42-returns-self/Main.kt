class Builder {
    private val parts = StringBuilder()

    fun add(p: String): Builder {
        parts.append(p)
        return this
    }

    fun addTwice(p: String) = apply {
        add(p)
        add(p)
    }

    fun build(): String = parts.toString()
}

fun main() {
    println(Builder().add("a").addTwice("b").build())
}
