// The javac-bytecode reading's helper: compiles a Java tree with debug information
// (-g) into a classes directory, as the javac oracle's build does (same options, same
// --release), and writes where each class, method and constructor is declared, so the
// bytecode's callees (owner class, name, descriptor) map to declaration lines.
//
// Built at run time by oracles/src/javac_bytecode.rs and run as
//   java -cp <cache> Declarations --root ROOT --files LIST --out FILE --classes DIR
//        [--classpath CP] [--release N]
//
// FILE receives one JSON object per line:
//   {"kind":"class","binary":"a/B$C","file":"src/a/B.java","line":7}
//   {"kind":"method","owner":"a/B$C","name":"m","params":"(ILjava/lang/String;)","line":9}
// `binary` is the JVM's internal name; an anonymous class is declared at the type its
// `new` writes (`new T() {…}`: T's line). `name` is `<init>` for a constructor;
// `params` is the erased parameter descriptor of the source's parameters (a
// constructor's bytecode may add the enclosing instance, an enum's name and ordinal,
// captured locals). A constructor javac generates is not listed (the class's line
// stands for it). Only the bytecode says which declaration a call reaches; this file
// says where declarations are.
import com.sun.source.tree.*;
import com.sun.source.util.*;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

import javax.lang.model.element.*;
import javax.lang.model.type.*;
import javax.lang.model.util.*;
import javax.tools.*;

public final class Declarations {
    private Path root;
    private Trees trees;
    private Types types;
    private Elements elements;
    private SourcePositions positions;
    private BufferedWriter out;

    public static void main(String[] args) throws Exception {
        Path root = null, out = null, list = null, classes = null;
        String classpath = null, release = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) usage("missing value after " + a);
            switch (a) {
                case "--root": root = Paths.get(args[++i]); break;
                case "--out": out = Paths.get(args[++i]); break;
                case "--files": list = Paths.get(args[++i]); break;
                case "--classes": classes = Paths.get(args[++i]); break;
                case "--classpath": classpath = args[++i]; break;
                case "--release": release = args[++i]; break;
                default: usage("unknown argument " + a);
            }
        }
        if (root == null || out == null || list == null || classes == null)
            usage("--root, --files, --out and --classes are required");
        int errors = new Declarations().run(root.toAbsolutePath().normalize(), list, out, classes, classpath, release);
        System.exit(errors == 0 ? 0 : 1);
    }

    private static void usage(String why) {
        System.err.println("Declarations: " + why);
        System.exit(2);
    }

    private int run(Path root, Path list, Path outPath, Path classes, String classpath, String release)
            throws IOException {
        this.root = root;
        List<Path> files = new ArrayList<>();
        for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) files.add(root.resolve(line.strip()));
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            System.err.println("Declarations: this Java runtime has no compiler (a JRE, not a JDK)");
            System.exit(3);
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8);
        Path empty = Files.createTempDirectory("declarations-empty");
        Files.createDirectories(classes);
        List<String> options = new ArrayList<>(List.of(
                "-proc:none", "-encoding", "UTF-8", "-implicit:none", "-nowarn", "-g",
                "-Xmaxerrs", "1000000",
                "-d", classes.toString(),
                "-sourcepath", empty.toString(),
                "-classpath", classpath == null || classpath.isEmpty() ? empty.toString() : classpath));
        if (release != null && !release.isEmpty()) {
            options.add("--release");
            options.add(release);
        }
        JavacTask task = (JavacTask) compiler.getTask(null, fm, diagnostics, options, null,
                fm.getJavaFileObjectsFromPaths(files));
        trees = Trees.instance(task);
        types = task.getTypes();
        elements = task.getElements();
        positions = trees.getSourcePositions();
        List<CompilationUnitTree> units = new ArrayList<>();
        for (CompilationUnitTree u : task.parse()) units.add(u);
        task.analyze();
        units.sort(Comparator.comparing(u -> relative(u)));
        // Declarations are read before generation, which lowers the trees.
        try (BufferedWriter w = Files.newBufferedWriter(outPath, StandardCharsets.UTF_8)) {
            out = w;
            for (CompilationUnitTree u : units) new Scan(u).scan(u, null);
        }
        task.generate();
        Files.deleteIfExists(empty);
        int errors = 0;
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) continue;
            if (errors++ < 40) System.err.println("javac: " + d.toString().replace(root.toString() + "/", ""));
        }
        return errors;
    }

    private String relative(CompilationUnitTree u) {
        Path p = Paths.get(u.getSourceFile().toUri()).toAbsolutePath().normalize();
        return root.relativize(p).toString().replace('\\', '/');
    }

    /** The erased descriptor of a type, as the class file writes it. */
    private String descriptor(TypeMirror t) {
        TypeMirror e = types.erasure(t);
        switch (e.getKind()) {
            case BOOLEAN: return "Z";
            case BYTE: return "B";
            case CHAR: return "C";
            case SHORT: return "S";
            case INT: return "I";
            case LONG: return "J";
            case FLOAT: return "F";
            case DOUBLE: return "D";
            case VOID: return "V";
            case ARRAY: return "[" + descriptor(((ArrayType) e).getComponentType());
            case DECLARED: return "L" + internalName((TypeElement) ((DeclaredType) e).asElement()) + ";";
            default: return "?";
        }
    }

    private String internalName(TypeElement type) {
        return elements.getBinaryName(type).toString().replace('.', '/');
    }

    private final class Scan extends TreePathScanner<Void, Void> {
        final CompilationUnitTree u;
        final String text;
        final String file;

        Scan(CompilationUnitTree u) throws IOException {
            this.u = u;
            this.text = u.getSourceFile().getCharContent(true).toString();
            this.file = relative(u);
        }

        long line(long offset) {
            return u.getLineMap().getLineNumber(offset);
        }

        long start(Tree t) {
            return positions.getStartPosition(u, t);
        }

        long end(Tree t) {
            return positions.getEndPosition(u, t);
        }

        /** The first identifier `name` at or after `from`, skipping comments and literals; -1 past a `{` or `;`. */
        long findName(long from, String name) {
            int i = (int) Math.max(from, 0), n = text.length();
            while (i < n) {
                char c = text.charAt(i);
                if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                    while (i < n && text.charAt(i) != '\n') i++;
                } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                    int close = text.indexOf("*/", i + 2);
                    i = close < 0 ? n : close + 2;
                } else if (c == '"' || c == '\'') {
                    i++;
                    while (i < n && text.charAt(i) != c) i += text.charAt(i) == '\\' ? 2 : 1;
                    i++;
                } else if (Character.isJavaIdentifierStart(c)) {
                    int s = i;
                    while (i < n && Character.isJavaIdentifierPart(text.charAt(i))) i++;
                    if (text.substring(s, i).equals(name)) return s;
                } else if (c == '{' || c == ';') {
                    return -1;
                } else {
                    i++;
                }
            }
            return -1;
        }

        @Override
        public Void visitClass(ClassTree c, Void v) {
            Element e = trees.getElement(getCurrentPath());
            if (e instanceof TypeElement) {
                long at;
                Tree parent = getCurrentPath().getParentPath().getLeaf();
                if (c.getSimpleName().length() == 0 && parent instanceof NewClassTree) {
                    at = start(((NewClassTree) parent).getIdentifier());
                } else {
                    long from = Math.max(start(c), end(c.getModifiers()));
                    at = findName(from, c.getSimpleName().toString());
                    if (at < 0) at = start(c);
                }
                write("{\"kind\":\"class\",\"binary\":" + quote(internalName((TypeElement) e))
                        + ",\"file\":" + quote(file) + ",\"line\":" + line(at) + "}");
            }
            return super.visitClass(c, v);
        }

        @Override
        public Void visitMethod(MethodTree m, Void v) {
            Element e = trees.getElement(getCurrentPath());
            boolean generated = end(m) == Diagnostic.NOPOS || end(m) <= start(m);
            if (e instanceof ExecutableElement && !generated) {
                ExecutableElement x = (ExecutableElement) e;
                TypeElement owner = (TypeElement) x.getEnclosingElement();
                boolean ctor = x.getKind() == ElementKind.CONSTRUCTOR;
                String name = ctor ? owner.getSimpleName().toString() : x.getSimpleName().toString();
                long from = Math.max(start(m), end(m.getModifiers()));
                for (TypeParameterTree tp : m.getTypeParameters()) from = Math.max(from, end(tp));
                if (m.getReturnType() != null) from = Math.max(from, end(m.getReturnType()));
                long at = findName(from, name);
                if (at < 0) at = start(m);
                StringBuilder params = new StringBuilder("(");
                for (VariableElement p : x.getParameters()) params.append(descriptor(p.asType()));
                params.append(')');
                write("{\"kind\":\"method\",\"owner\":" + quote(internalName(owner))
                        + ",\"name\":" + quote(ctor ? "<init>" : x.getSimpleName().toString())
                        + ",\"params\":" + quote(params.toString())
                        + ",\"file\":" + quote(file) + ",\"line\":" + line(at) + "}");
            }
            return super.visitMethod(m, v);
        }

        void write(String line) {
            try {
                out.write(line);
                out.write('\n');
            } catch (IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
        }
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
