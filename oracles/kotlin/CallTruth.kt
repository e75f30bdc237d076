// The kotlinc oracle's compiler plugin: every call, construction, delegating
// constructor call and callable reference of the module, as the compiler resolved it,
// read from the IR after FIR2IR and before any lowering (so inline calls are still
// calls, there are no `$default` bridges, and string templates are concatenations,
// not calls).
//
// It writes one JSON object per line to the file named by the system property
// `calltruth.out` (`kotlinc -J-Dcalltruth.out=FILE -Xplugin=calltruth.jar …`); without
// the property it does nothing. It only reports: it changes no IR. Every offset it
// writes is the compiler's own (characters of the LF-normalised text); the adapter
// (oracles/src/kotlinc.rs) turns them into lines and byte columns of the called name
// by reading the syntax tree, and decides what is judged and what is set apart.
//
// Built by the adapter against the exact compiler jar it runs with: the IR API is not
// stable between compiler versions.

package callgraph.calltruth

import java.io.BufferedWriter
import java.io.File
import org.jetbrains.kotlin.backend.common.extensions.IrGenerationExtension
import org.jetbrains.kotlin.backend.common.extensions.IrPluginContext
import org.jetbrains.kotlin.compiler.plugin.CompilerPluginRegistrar
import org.jetbrains.kotlin.compiler.plugin.ExperimentalCompilerApi
import org.jetbrains.kotlin.config.CompilerConfiguration
import org.jetbrains.kotlin.ir.IrElement
import org.jetbrains.kotlin.ir.declarations.IrAnonymousInitializer
import org.jetbrains.kotlin.ir.declarations.IrClass
import org.jetbrains.kotlin.ir.declarations.IrConstructor
import org.jetbrains.kotlin.ir.declarations.IrDeclaration
import org.jetbrains.kotlin.ir.declarations.IrDeclarationWithName
import org.jetbrains.kotlin.ir.declarations.IrField
import org.jetbrains.kotlin.ir.declarations.IrFile
import org.jetbrains.kotlin.ir.declarations.IrFunction
import org.jetbrains.kotlin.ir.declarations.IrModuleFragment
import org.jetbrains.kotlin.ir.declarations.IrProperty
import org.jetbrains.kotlin.ir.declarations.IrSimpleFunction
import org.jetbrains.kotlin.ir.declarations.IrTypeAlias
import org.jetbrains.kotlin.ir.expressions.IrCall
import org.jetbrains.kotlin.ir.expressions.IrConstructorCall
import org.jetbrains.kotlin.ir.expressions.IrDelegatingConstructorCall
import org.jetbrains.kotlin.ir.expressions.IrEnumConstructorCall
import org.jetbrains.kotlin.ir.expressions.IrFunctionAccessExpression
import org.jetbrains.kotlin.ir.expressions.IrFunctionReference
import org.jetbrains.kotlin.ir.expressions.IrPropertyReference
import org.jetbrains.kotlin.ir.expressions.IrRichFunctionReference
import org.jetbrains.kotlin.ir.expressions.IrRichPropertyReference
import org.jetbrains.kotlin.ir.expressions.IrStatementOrigin
import org.jetbrains.kotlin.ir.symbols.UnsafeDuringIrConstructionAPI
import org.jetbrains.kotlin.ir.util.fileOrNull
import org.jetbrains.kotlin.ir.util.isFakeOverride
import org.jetbrains.kotlin.ir.util.kotlinFqName
import org.jetbrains.kotlin.ir.util.parentClassOrNull
import org.jetbrains.kotlin.ir.util.resolveFakeOverride
import org.jetbrains.kotlin.ir.util.resolveFakeOverrideMaybeAbstract
import org.jetbrains.kotlin.ir.visitors.IrVisitorVoid
import org.jetbrains.kotlin.ir.visitors.acceptChildrenVoid
import org.jetbrains.kotlin.ir.visitors.acceptVoid

/** The version of what this plugin writes; the adapter's version includes it. */
const val PLUGIN_VERSION = "1"

@OptIn(ExperimentalCompilerApi::class)
class CallTruthRegistrar : CompilerPluginRegistrar() {
    override val pluginId: String = "callgraph.calltruth"
    override val supportsK2: Boolean = true

    override fun ExtensionStorage.registerExtensions(configuration: CompilerConfiguration) {
        val out = System.getProperty("calltruth.out") ?: return
        IrGenerationExtension.registerExtension(CallTruthExtension(File(out)))
    }
}

class CallTruthExtension(private val out: File) : IrGenerationExtension {
    override fun generate(moduleFragment: IrModuleFragment, pluginContext: IrPluginContext) {
        val expects = ExpectIndex()
        for (file in moduleFragment.files) expects.collect(file)
        out.bufferedWriter().use { writer ->
            writer.write(obj("kind" to str("plugin"), "version" to str(PLUGIN_VERSION)))
            writer.newLine()
            for (file in moduleFragment.files) {
                file.acceptVoid(Walker(writer, expects))
            }
        }
    }
}

/**
 * The module's `expect` declarations by a key their `actual` shares (fully qualified
 * name, and the parameter count for a function), so that a call the IR already binds
 * to the `actual` also names the `expect` it was written against.
 */
class ExpectIndex {
    private val byKey = HashMap<String, MutableList<IrDeclaration>>()

    fun collect(file: IrFile) {
        // Declarations nest only through classes; the depth of a Kotlin file's class
        // nesting is what bounds this walk.
        val stack = ArrayDeque<IrDeclaration>(file.declarations)
        while (stack.isNotEmpty()) {
            val d = stack.removeLast()
            if (isExpect(d)) {
                val key = keyOf(d)
                if (key != null) byKey.getOrPut(key) { mutableListOf() }.add(d)
            }
            if (d is IrClass) stack.addAll(d.declarations)
        }
    }

    fun expectsOf(d: IrDeclaration): List<IrDeclaration> {
        if (isExpect(d)) return emptyList()
        val key = keyOf(d) ?: return emptyList()
        return byKey[key] ?: emptyList()
    }

    private fun isExpect(d: IrDeclaration): Boolean = when (d) {
        is IrFunction -> d.isExpect
        is IrClass -> d.isExpect
        is IrProperty -> d.isExpect
        else -> false
    }

    @OptIn(UnsafeDuringIrConstructionAPI::class)
    private fun keyOf(d: IrDeclaration): String? = when (d) {
        is IrConstructor -> "new:" + d.parentClassOrNull?.kotlinFqName + "/" + d.parameters.size
        is IrSimpleFunction -> "fun:" + (d.parent.kotlinFqName.asString()) + "." + d.name.asString() +
            "/" + d.parameters.size
        is IrClass -> "class:" + d.kotlinFqName
        is IrProperty -> "val:" + d.parent.kotlinFqName.asString() + "." + d.name.asString()
        else -> null
    }
}

/** Walks one file's IR, keeping the stack of declarations around the current node. */
@OptIn(UnsafeDuringIrConstructionAPI::class)
class Walker(private val w: BufferedWriter, private val expects: ExpectIndex) : IrVisitorVoid() {
    private val enclosing = ArrayList<IrDeclaration>()
    /** How many rich references' generated `invoke` bodies we are inside. */
    private var inReference = 0
    private lateinit var file: IrFile

    override fun visitElement(element: IrElement) {
        element.acceptChildrenVoid(this)
    }

    override fun visitFile(declaration: IrFile) {
        file = declaration
        declaration.acceptChildrenVoid(this)
    }

    private fun within(d: IrDeclaration, body: () -> Unit) {
        enclosing.add(d)
        try {
            body()
        } finally {
            enclosing.removeAt(enclosing.size - 1)
        }
    }

    override fun visitClass(declaration: IrClass) = within(declaration) { declaration.acceptChildrenVoid(this) }
    override fun visitFunction(declaration: IrFunction) = within(declaration) { declaration.acceptChildrenVoid(this) }
    override fun visitProperty(declaration: IrProperty) = within(declaration) { declaration.acceptChildrenVoid(this) }
    override fun visitField(declaration: IrField) = within(declaration) { declaration.acceptChildrenVoid(this) }
    override fun visitAnonymousInitializer(declaration: IrAnonymousInitializer) =
        within(declaration) { declaration.acceptChildrenVoid(this) }
    override fun visitTypeAlias(declaration: IrTypeAlias) {}

    override fun visitFunctionAccess(expression: IrFunctionAccessExpression) {
        val kind = when (expression) {
            is IrEnumConstructorCall -> "enum_new"
            is IrConstructorCall -> "new"
            is IrDelegatingConstructorCall -> "delegating"
            else -> "call"
        }
        val superQualified = (expression as? IrCall)?.superQualifierSymbol != null
        emit(kind, expression.startOffset, expression.endOffset, expression.origin,
            expression.symbol.owner, superQualified)
        expression.acceptChildrenVoid(this)
    }

    override fun visitFunctionReference(expression: IrFunctionReference) {
        emit("reference", expression.startOffset, expression.endOffset, expression.origin,
            expression.symbol.owner, false)
        expression.acceptChildrenVoid(this)
    }

    override fun visitRichFunctionReference(expression: IrRichFunctionReference) {
        emit("reference", expression.startOffset, expression.endOffset, expression.origin,
            expression.reflectionTargetSymbol?.owner ?: expression.invokeFunction, false)
        // The generated `invoke` calls the referenced function: that call is the
        // reference itself, not a call the source writes.
        inReference++
        try {
            expression.acceptChildrenVoid(this)
        } finally {
            inReference--
        }
    }

    override fun visitPropertyReference(expression: IrPropertyReference) {
        emitProperty(expression.startOffset, expression.endOffset, expression.origin, expression.symbol.owner)
        expression.acceptChildrenVoid(this)
    }

    override fun visitRichPropertyReference(expression: IrRichPropertyReference) {
        val target = expression.reflectionTargetSymbol?.owner
        if (target is IrProperty) {
            emitProperty(expression.startOffset, expression.endOffset, expression.origin, target)
        }
        inReference++
        try {
            expression.acceptChildrenVoid(this)
        } finally {
            inReference--
        }
    }

    private fun emitProperty(start: Int, end: Int, origin: IrStatementOrigin?, property: IrProperty) {
        w.write(obj(
            "kind" to str("property_reference"),
            "file" to str(file.fileEntry.name),
            "start" to num(start), "end" to num(end), "line" to line(start),
            "origin" to origin?.let { str(it.toString()) },
            "callee" to obj("name" to str(property.name.asString()), "decl" to str("property"),
                "fq" to str(fq(property))),
            "context" to context(),
        ))
        w.newLine()
    }

    private fun emit(
        kind: String,
        start: Int,
        end: Int,
        origin: IrStatementOrigin?,
        callee: IrFunction,
        superQualified: Boolean,
    ) {
        w.write(obj(
            "kind" to str(kind),
            "file" to str(file.fileEntry.name),
            "start" to num(start), "end" to num(end), "line" to line(start),
            "origin" to origin?.let { str(it.toString()) },
            "super" to if (superQualified) "true" else null,
            "in_reference" to if (inReference > 0) "true" else null,
            "callee" to calleeOf(callee),
            "context" to context(),
        ))
        w.newLine()
    }

    private fun line(offset: Int): String? =
        if (offset < 0) null else num(file.fileEntry.getLineNumber(offset) + 1)

    /** The enclosing declarations, innermost first. */
    private fun context(): String = arr(enclosing.asReversed().map { declaration(it) })

    private fun calleeOf(f: IrFunction): String {
        val simple = f as? IrSimpleFunction
        val property = simple?.correspondingPropertySymbol?.owner
        val resolved: List<IrFunction> = when {
            simple != null && simple.isFakeOverride -> {
                val real = simple.resolveFakeOverride()
                    ?: simple.resolveFakeOverrideMaybeAbstract()
                listOfNotNull(real)
            }
            else -> listOf(f)
        }
        val owner = f.parentClassOrNull
        return obj(
            "name" to str(f.name.asString()),
            "decl" to str(if (f is IrConstructor) "constructor" else "function"),
            "fq" to str(fq(f)),
            "origin" to str(f.origin.toString()),
            "fake_override" to if (simple?.isFakeOverride == true) "true" else null,
            "operator" to if (simple?.isOperator == true) "true" else null,
            "infix" to if (simple?.isInfix == true) "true" else null,
            "primary" to if ((f as? IrConstructor)?.isPrimary == true) "true" else null,
            "property" to property?.let { str(it.name.asString()) },
            "owner" to owner?.let { classOf(it) },
            "declarations" to arr(resolved.map { declaration(it) }),
            "expects" to arr(resolved.flatMap { r -> expects.expectsOf(r).map { declaration(it) } }),
        )
    }

    private fun classOf(c: IrClass): String = obj(
        "name" to str(c.name.asString()),
        "fq" to str(fq(c)),
        "kind" to str(c.kind.toString()),
        "companion" to if (c.isCompanion) "true" else null,
        "data" to if (c.isData) "true" else null,
    )

    /** A declaration: what it is, its name, its origin, and where it is (when in a file of the module). */
    private fun declaration(d: IrDeclaration): String {
        val file = d.fileOrNull
        val kind = when (d) {
            is IrConstructor -> "constructor"
            is IrSimpleFunction -> when {
                d.correspondingPropertySymbol != null -> "accessor"
                d.name.isSpecial -> "lambda"
                else -> "function"
            }
            is IrClass -> "class"
            is IrProperty -> "property"
            is IrField -> "field"
            is IrAnonymousInitializer -> "initializer"
            else -> "other"
        }
        val named = d as? IrDeclarationWithName
        val entry = file?.fileEntry?.takeIf { d.startOffset >= 0 }
        return obj(
            "kind" to str(kind),
            "name" to named?.let { str(it.name.asString()) },
            "origin" to str(d.origin.toString()),
            "fq" to named?.let { str(fq(it)) },
            "primary" to if ((d as? IrConstructor)?.isPrimary == true) "true" else null,
            "file" to entry?.let { str(it.name) },
            "start" to entry?.let { num(d.startOffset) },
            "end" to entry?.let { num(d.endOffset) },
            "line" to entry?.let { num(it.getLineNumber(d.startOffset) + 1) },
            "property" to ((d as? IrSimpleFunction)?.correspondingPropertySymbol?.owner?.let { p ->
                declaration(p)
            }),
            "parent_class" to when (d) {
                is IrConstructor, is IrSimpleFunction, is IrProperty -> d.parentClassOrNull?.let { c ->
                    if (c.fileOrNull != null && c.startOffset >= 0) declaration(c) else null
                }
                else -> null
            },
        )
    }

    private fun fq(d: IrDeclarationWithName): String = try {
        when (d) {
            is IrClass -> d.kotlinFqName.asString()
            else -> {
                val prefix = d.parent.kotlinFqName.asString()
                if (prefix.isEmpty()) d.name.asString() else prefix + "." + d.name.asString()
            }
        }
    } catch (e: Exception) {
        d.name.asString()
    }
}

// A few lines of JSON writing: values are already-encoded JSON text, and a null value
// leaves its field out.

fun str(s: String): String {
    val b = StringBuilder(s.length + 2)
    b.append('"')
    for (c in s) {
        when {
            c == '"' -> b.append("\\\"")
            c == '\\' -> b.append("\\\\")
            c == '\n' -> b.append("\\n")
            c == '\r' -> b.append("\\r")
            c == '\t' -> b.append("\\t")
            c < ' ' -> b.append(String.format("\\u%04x", c.code))
            else -> b.append(c)
        }
    }
    b.append('"')
    return b.toString()
}

fun num(n: Int): String = n.toString()

fun obj(vararg fields: Pair<String, String?>): String =
    fields.filter { it.second != null }.joinToString(",", "{", "}") { str(it.first) + ":" + it.second }

fun arr(items: List<String>): String = items.joinToString(",", "[", "]")
