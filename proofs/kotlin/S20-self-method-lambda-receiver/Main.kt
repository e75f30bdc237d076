class Html {
    private val out = StringBuilder()

    fun p(text: String) {
        out.append(text).append(";")
    }

    fun render(): String = out.toString()
}

fun html(build: Html.() -> Unit): Html {
    val h = Html()
    h.build()
    return h
}

fun main() {
    val page = html {
        p("one")
        p("two")
    }
    println(page.render())
}
