// The javac oracle's helper: compiles a Java tree with the public javac API
// (com.sun.source.*, javax.tools; no --add-exports), lets javac attribute it, and writes
// every call site the source writes with the declaration javac bound it to.
//
// Built at run time by oracles/src/javac.rs (javac -d <cache> CallTruth.java) and run as
//   java -cp <cache> CallTruth --root ROOT --files LIST --out FILE
//        [--classpath CP] [--release N]
// LIST holds the .java files to compile, one path relative to ROOT per line.
//
// FILE receives one JSON object per line, already in the shape of a callgraph-truth/1
// site plus "kind" ("site" or "reference"):
//   {"kind":"site","file":"src/A.java","line":3,"column":9,"name":"parse",
//    "caller":{"file":"src/A.java","line":2},
//    "targets":[{"kind":"in_tree","file":"src/B.java","line":8}]}
// with "unjudged":"<reason>" where javac's binding cannot be trusted (the call or its
// arguments did not compile) and "implicit":"<kind>" for calls no source text writes.
// Positions: 1-based lines; columns are 1-based UTF-8 byte columns of the call's own
// name token (`b` in `a.b()`, `T` in `new a.T()`, `this`/`super` in `this(...)`).
// A target line is the line of the declaration's name; a constructor javac generated
// (a class that declares none) is the class's name line; a member javac synthesized in
// an in-tree type (enum values()/valueOf(), record accessors) is that type's name line;
// `new T(...) { ... }` accepts the anonymous class (at the written T) and T's constructor
// that its super(...) binds (T itself when T is an interface or declares none).
// stdout gets one summary line of JSON; stderr the first compile errors.
import com.sun.source.tree.*;
import com.sun.source.util.*;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

import javax.lang.model.element.*;
import javax.lang.model.type.*;
import javax.tools.*;

public final class CallTruth {
    private static final long NOPOS = Diagnostic.NOPOS;

    private Path root;
    private Trees trees;
    private SourcePositions positions;
    private final Map<CompilationUnitTree, String> texts = new IdentityHashMap<>();
    private final Map<String, long[]> errorsByFile = new HashMap<>();
    private final Map<String, Integer> counts = new TreeMap<>();
    private BufferedWriter out;

    public static void main(String[] args) throws Exception {
        Path root = null, out = null, list = null;
        String classpath = null, release = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) usage("missing value after " + a);
            switch (a) {
                case "--root": root = Paths.get(args[++i]); break;
                case "--out": out = Paths.get(args[++i]); break;
                case "--files": list = Paths.get(args[++i]); break;
                case "--classpath": classpath = args[++i]; break;
                case "--release": release = args[++i]; break;
                default: usage("unknown argument " + a);
            }
        }
        if (root == null || out == null || list == null) usage("--root, --files and --out are required");
        new CallTruth().run(root.toAbsolutePath().normalize(), list, out, classpath, release);
    }

    private static void usage(String why) {
        System.err.println("CallTruth: " + why);
        System.err.println("usage: CallTruth --root ROOT --files LIST --out FILE [--classpath CP] [--release N]");
        System.exit(2);
    }

    private void run(Path root, Path list, Path outPath, String classpath, String release) throws IOException {
        this.root = root;
        List<Path> files = new ArrayList<>();
        for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) files.add(root.resolve(line.strip()));
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            System.err.println("CallTruth: this Java runtime has no compiler (a JRE, not a JDK)");
            System.exit(3);
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8);
        Path empty = Files.createTempDirectory("calltruth-empty");
        List<String> options = new ArrayList<>(List.of(
                "-proc:none", "-encoding", "UTF-8", "-implicit:none", "-nowarn",
                // Attribute every class even after an error, so one file that does not
                // compile does not leave the rest of the tree unbound.
                "-XDshould-stop.ifError=FLOW", "-XDshould-stop.at=FLOW",
                "-Xmaxerrs", "1000000",
                "-sourcepath", empty.toString(),
                "-classpath", classpath == null || classpath.isEmpty() ? empty.toString() : classpath));
        if (release != null && !release.isEmpty()) {
            options.add("--release");
            options.add(release);
        }
        JavacTask task = (JavacTask) compiler.getTask(null, fm, diagnostics, options, null,
                fm.getJavaFileObjectsFromPaths(files));
        trees = Trees.instance(task);
        positions = trees.getSourcePositions();
        List<CompilationUnitTree> units = new ArrayList<>();
        for (CompilationUnitTree u : task.parse()) units.add(u);
        task.analyze();
        for (CompilationUnitTree u : units) texts.put(u, u.getSourceFile().getCharContent(true).toString());
        collectErrors(diagnostics);
        units.sort(Comparator.comparing(u -> relative(u)));
        try (BufferedWriter w = Files.newBufferedWriter(outPath, StandardCharsets.UTF_8)) {
            out = w;
            for (CompilationUnitTree u : units) new Sites(u).scan(u, null);
        }
        Files.deleteIfExists(empty);
        StringBuilder summary = new StringBuilder("{\"files\":").append(units.size());
        int errors = errorsByFile.values().stream().mapToInt(a -> a.length / 2).sum();
        summary.append(",\"errors\":").append(errors);
        for (Map.Entry<String, Integer> c : counts.entrySet())
            summary.append(",\"").append(c.getKey()).append("\":").append(c.getValue());
        System.out.println(summary.append('}'));
    }

    /** Error diagnostics as [start, end] ranges per file; the first few go to stderr. */
    private void collectErrors(DiagnosticCollector<JavaFileObject> diagnostics) {
        Map<String, List<long[]>> ranges = new HashMap<>();
        int shown = 0;
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) continue;
            if (shown++ < 40) System.err.println("javac: " + d.toString().replace(root.toString() + "/", ""));
            if (d.getSource() == null || d.getPosition() == NOPOS) continue;
            long start = d.getStartPosition() == NOPOS ? d.getPosition() : d.getStartPosition();
            long end = d.getEndPosition() == NOPOS ? d.getPosition() : d.getEndPosition();
            ranges.computeIfAbsent(d.getSource().toUri().toString(), k -> new ArrayList<>())
                    .add(new long[] {Math.min(start, d.getPosition()), Math.max(end, d.getPosition())});
        }
        for (Map.Entry<String, List<long[]>> e : ranges.entrySet()) {
            long[] flat = new long[e.getValue().size() * 2];
            for (int i = 0; i < e.getValue().size(); i++) {
                flat[2 * i] = e.getValue().get(i)[0];
                flat[2 * i + 1] = e.getValue().get(i)[1];
            }
            errorsByFile.put(e.getKey(), flat);
        }
    }

    private String relative(CompilationUnitTree u) {
        Path p = Paths.get(u.getSourceFile().toUri()).toAbsolutePath().normalize();
        return root.relativize(p).toString().replace('\\', '/');
    }

    private void count(String key) {
        counts.merge(key, 1, Integer::sum);
    }

    // ---- positions ------------------------------------------------------------------

    /** A position in a unit: 1-based line and UTF-8 byte column. */
    private static final class Pos {
        final String file;
        final long line;
        final long column;

        Pos(String file, long line, long column) {
            this.file = file;
            this.line = line;
            this.column = column;
        }
    }

    private Pos pos(CompilationUnitTree u, long offset) {
        LineMap lm = u.getLineMap();
        long line = lm.getLineNumber(offset);
        long lineStart = lm.getStartPosition(line);
        String text = texts.get(u);
        long bytes = 0;
        for (int i = (int) lineStart; i < offset && i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) bytes += 1;
            else if (c < 0x800) bytes += 2;
            else if (Character.isSurrogate(c)) bytes += 2; // a pair is 4 bytes
            else bytes += 3;
        }
        return new Pos(relative(u), line, bytes + 1);
    }

    private long start(CompilationUnitTree u, Tree t) {
        return positions.getStartPosition(u, t);
    }

    private long end(CompilationUnitTree u, Tree t) {
        return positions.getEndPosition(u, t);
    }

    /** Whether the text at `offset` is the identifier `name` (and not a longer one). */
    private boolean writes(CompilationUnitTree u, long offset, String name) {
        String text = texts.get(u);
        if (offset < 0 || offset + name.length() > text.length()) return false;
        if (!text.startsWith(name, (int) offset)) return false;
        int after = (int) offset + name.length();
        return after >= text.length() || !Character.isJavaIdentifierPart(text.charAt(after));
    }

    /**
     * The offset of the first identifier token `name` at or after `from`, skipping
     * comments and literals; -1 when there is none before a body opens.
     */
    private long findName(CompilationUnitTree u, long from, String name) {
        String text = texts.get(u);
        int i = (int) Math.max(from, 0);
        int n = text.length();
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

    /** Whether javac made this method itself (a default constructor, an anonymous class's). */
    private boolean generated(CompilationUnitTree u, MethodTree m) {
        return end(u, m) == NOPOS || end(u, m) <= start(u, m);
    }

    /** The position of a class's name; an anonymous class has none (null). */
    private Pos classNamePos(CompilationUnitTree u, ClassTree c) {
        String name = c.getSimpleName().toString();
        if (name.isEmpty()) return null;
        long from = Math.max(start(u, c), end(u, c.getModifiers()));
        long at = findName(u, from, name);
        return pos(u, at >= 0 ? at : start(u, c));
    }

    /** The position of a written method's or constructor's name. */
    private Pos methodNamePos(CompilationUnitTree u, MethodTree m, String name) {
        long from = Math.max(start(u, m), end(u, m.getModifiers()));
        for (TypeParameterTree tp : m.getTypeParameters()) from = Math.max(from, end(u, tp));
        if (m.getReturnType() != null) from = Math.max(from, end(u, m.getReturnType()));
        long at = findName(u, from, name);
        return pos(u, at >= 0 ? at : start(u, m));
    }

    // ---- targets --------------------------------------------------------------------

    /** What a call reaches: its acceptable targets, or why it is not judged. */
    private static final class Target {
        String json;        // truth target objects, comma-separated, or null
        String unjudged;    // a reason, or null

        static Target of(String json) {
            Target t = new Target();
            t.json = json;
            return t;
        }

        static Target unjudged(String reason, String json) {
            Target t = of(json);
            t.unjudged = reason;
            return t;
        }
    }

    private static String inTree(Pos p) {
        return "{\"kind\":\"in_tree\",\"file\":" + quote(p.file) + ",\"line\":" + p.line + "}";
    }

    private static String outside(String symbol) {
        return "{\"kind\":\"outside\",\"symbol\":" + quote(symbol) + "}";
    }

    private static TypeElement ownerType(Element e) {
        Element c = e;
        while (c != null && !(c instanceof TypeElement)) c = c.getEnclosingElement();
        return (TypeElement) c;
    }

    private static boolean erroneous(Element e) {
        if (e == null) return true;
        TypeMirror t = e.asType();
        return t == null || t.getKind() == TypeKind.ERROR;
    }

    /** The declaration of a type: its name line in the tree, or outside by its name. */
    private Target typeTarget(TypeElement type) {
        TreePath p = trees.getPath(type);
        if (p != null && p.getLeaf() instanceof ClassTree) {
            Pos at = classNamePos(p.getCompilationUnit(), (ClassTree) p.getLeaf());
            if (at != null) return Target.of(inTree(at));
        }
        return Target.of(outside(type.getQualifiedName().toString()));
    }

    /** The declaration javac bound a method, constructor or reference to. */
    private Target target(Element e) {
        if (erroneous(e) || !(e instanceof ExecutableElement)) return Target.unjudged("unresolved_symbol", null);
        TypeElement owner = ownerType(e);
        boolean ctor = e.getKind() == ElementKind.CONSTRUCTOR;
        TreePath p = trees.getPath(e);
        if (p != null && p.getLeaf() instanceof MethodTree) {
            CompilationUnitTree u = p.getCompilationUnit();
            MethodTree m = (MethodTree) p.getLeaf();
            if (!generated(u, m)) {
                String name = ctor ? owner.getSimpleName().toString() : e.getSimpleName().toString();
                return Target.of(inTree(methodNamePos(u, m, name)));
            }
            if (ctor && owner != null) return typeTarget(owner);   // the class declares none
        }
        if (owner != null && trees.getPath(owner) != null) {
            // A member javac synthesized in an in-tree type (enum values()/valueOf(), a
            // record accessor): the type that declares it implicitly is the declaration.
            return typeTarget(owner);
        }
        String type = owner == null ? "?" : owner.getQualifiedName().toString();
        return Target.of(outside(ctor ? type : type + "." + e.getSimpleName()));
    }

    // ---- the scan -------------------------------------------------------------------

    private final class Sites extends TreePathScanner<Void, Void> {
        final CompilationUnitTree u;
        final String uri;
        final Deque<Pos> callers = new ArrayDeque<>();

        Sites(CompilationUnitTree u) {
            this.u = u;
            this.uri = u.getSourceFile().toUri().toString();
        }

        @Override
        public Void visitClass(ClassTree c, Void v) {
            Pos at = classNamePos(u, c);
            if (at == null) at = anonymousAnchor();
            callers.push(at);
            try {
                return super.visitClass(c, v);
            } finally {
                callers.pop();
            }
        }

        /** An anonymous class is placed at the type its `new` names, or at its enum constant. */
        private Pos anonymousAnchor() {
            TreePath parent = getCurrentPath().getParentPath();
            if (parent != null && parent.getLeaf() instanceof NewClassTree) {
                NewClassTree nc = (NewClassTree) parent.getLeaf();
                long[] named = writtenName(nc.getIdentifier());
                if (named != null) return pos(u, named[0]);
                TreePath grand = parent.getParentPath();
                if (grand != null && grand.getLeaf() instanceof VariableTree) {
                    VariableTree var = (VariableTree) grand.getLeaf();
                    long at = findName(u, start(u, var), var.getName().toString());
                    if (at >= 0) return pos(u, at);
                }
                return pos(u, Math.max(start(u, nc), 0));
            }
            return callers.isEmpty() ? pos(u, Math.max(start(u, getCurrentPath().getLeaf()), 0)) : callers.peek();
        }

        @Override
        public Void visitMethod(MethodTree m, Void v) {
            Pos at;
            if (generated(u, m)) {
                at = callers.isEmpty() ? pos(u, 0) : callers.peek();   // the class itself
            } else {
                String name = m.getName().contentEquals("<init>")
                        ? enclosingClassName() : m.getName().toString();
                at = methodNamePos(u, m, name);
            }
            callers.push(at);
            try {
                return super.visitMethod(m, v);
            } finally {
                callers.pop();
            }
        }

        private String enclosingClassName() {
            for (TreePath p = getCurrentPath(); p != null; p = p.getParentPath())
                if (p.getLeaf() instanceof ClassTree) return ((ClassTree) p.getLeaf()).getSimpleName().toString();
            return "";
        }

        @Override
        public Void visitLambdaExpression(LambdaExpressionTree l, Void v) {
            callers.push(pos(u, start(u, l)));
            try {
                return super.visitLambdaExpression(l, v);
            } finally {
                callers.pop();
            }
        }

        /** [offset, length-of-name] of the simple name a type expression writes, or null. */
        long[] writtenName(Tree type) {
            Tree t = type;
            if (t instanceof AnnotatedTypeTree) t = ((AnnotatedTypeTree) t).getUnderlyingType();
            if (t instanceof ParameterizedTypeTree) t = ((ParameterizedTypeTree) t).getType();
            if (t instanceof AnnotatedTypeTree) t = ((AnnotatedTypeTree) t).getUnderlyingType();
            String name;
            long at;
            if (t instanceof IdentifierTree) {
                name = ((IdentifierTree) t).getName().toString();
                at = start(u, t);
            } else if (t instanceof MemberSelectTree) {
                name = ((MemberSelectTree) t).getIdentifier().toString();
                at = end(u, t) - name.length();
            } else {
                return null;
            }
            return writes(u, at, name) ? new long[] {at, name.length()} : null;
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree call, Void v) {
            ExpressionTree select = call.getMethodSelect();
            String name;
            long at;
            ExpressionTree receiver = null;
            if (select instanceof MemberSelectTree) {
                MemberSelectTree ms = (MemberSelectTree) select;
                name = ms.getIdentifier().toString();
                at = end(u, ms) - name.length();
                receiver = ms.getExpression();
            } else {
                name = ((IdentifierTree) select).getName().toString();
                at = start(u, select);
            }
            Element e = trees.getElement(new TreePath(getCurrentPath(), select));
            if (end(u, call) == NOPOS || !writes(u, at, name)) {
                // The super() javac puts at the start of a constructor that calls none.
                count("implicit");
                emit("site", at, name, target(e), "implicit_super", null);
            } else {
                Target t = target(e);
                emit("site", at, name, t, null, unjudged(call, call.getArguments(), receiver, t));
            }
            return super.visitMethodInvocation(call, v);
        }

        @Override
        public Void visitNewClass(NewClassTree nc, Void v) {
            Element e = trees.getElement(getCurrentPath());
            TreePath parent = getCurrentPath().getParentPath();
            boolean enumConstant = parent != null && parent.getLeaf() instanceof VariableTree
                    && ((VariableTree) parent.getLeaf()).getInitializer() == nc
                    && trees.getElement(parent) != null
                    && trees.getElement(parent).getKind() == ElementKind.ENUM_CONSTANT;
            long[] named = writtenName(nc.getIdentifier());
            if (enumConstant || named == null) {
                // An enum constant runs its enum's constructor; the source writes the
                // constant, not a construction.
                VariableTree var = enumConstant ? (VariableTree) parent.getLeaf() : null;
                long at = var != null ? findName(u, start(u, var), var.getName().toString()) : start(u, nc);
                Element typed = var != null ? trees.getElement(parent) : e;
                TypeElement type = typed == null ? null
                        : var != null ? (TypeElement) typed.getEnclosingElement() : ownerType(typed);
                String name = type == null ? "?" : type.getSimpleName().toString();
                Target t = nc.getClassBody() != null && !erroneous(e) ? anonymousTarget(nc, e) : target(e);
                count("implicit");
                emit("site", at, name, t, enumConstant ? "enum_constant" : "generated_construction", null);
                return super.visitNewClass(nc, v);
            }
            String name = texts.get(u).substring((int) named[0], (int) (named[0] + named[1]));
            Target t;
            if (nc.getClassBody() != null && e != null && !erroneous(e)) {
                // javac binds the anonymous class's own constructor, whose declaration
                // is the class body written at this `new T`; that constructor runs T's.
                // Either is an acceptable answer.
                Target sup = anonymousTarget(nc, e);
                t = sup.unjudged != null ? sup
                        : Target.of(inTree(pos(u, named[0])) + (sup.json == null ? "" : "," + sup.json));
            } else {
                t = target(e);
            }
            emit("site", named[0], name, t, null, unjudged(nc, nc.getArguments(), nc.getEnclosingExpression(), t));
            return super.visitNewClass(nc, v);
        }

        /**
         * `new T(args) { ... }`: the anonymous class's constructor is javac's; the source
         * reaches T's constructor (the one its super(args) binds), or T itself when T is an
         * interface or declares no constructor.
         */
        private Target anonymousTarget(NewClassTree nc, Element anonCtor) {
            TypeElement anon = ownerType(anonCtor);
            if (anon == null) return target(anonCtor);
            TypeMirror sup = anon.getSuperclass();
            if (!anon.getInterfaces().isEmpty() && sup instanceof DeclaredType
                    && ((TypeElement) ((DeclaredType) sup).asElement()).getQualifiedName().contentEquals("java.lang.Object")) {
                Element iface = ((DeclaredType) anon.getInterfaces().get(0)).asElement();
                return typeTarget((TypeElement) iface);
            }
            TreePath bodyPath = new TreePath(getCurrentPath(), nc.getClassBody());
            for (Tree member : nc.getClassBody().getMembers()) {
                if (!(member instanceof MethodTree)) continue;
                MethodTree m = (MethodTree) member;
                if (!m.getName().contentEquals("<init>") || m.getBody() == null) continue;
                for (StatementTree s : m.getBody().getStatements()) {
                    if (!(s instanceof ExpressionStatementTree)) continue;
                    ExpressionTree x = ((ExpressionStatementTree) s).getExpression();
                    if (!(x instanceof MethodInvocationTree)) continue;
                    ExpressionTree sel = ((MethodInvocationTree) x).getMethodSelect();
                    TreePath p = new TreePath(new TreePath(new TreePath(new TreePath(
                            new TreePath(bodyPath, m), m.getBody()), s), x), sel);
                    Element superCtor = trees.getElement(p);
                    if (superCtor != null && superCtor.getKind() == ElementKind.CONSTRUCTOR) return target(superCtor);
                }
            }
            return sup instanceof DeclaredType ? typeTarget((TypeElement) ((DeclaredType) sup).asElement())
                    : Target.unjudged("unresolved_symbol", null);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree ref, Void v) {
            boolean ctor = ref.getName().contentEquals("<init>");
            String name = ctor ? "new" : ref.getName().toString();
            long at = end(u, ref) - name.length();
            Element e = trees.getElement(getCurrentPath());
            if (writes(u, at, name)) {
                Target t = target(e);
                String why = t.unjudged;
                if (why == null && hasError(start(u, ref), end(u, ref))) why = "compile_error";
                emit("reference", at, name, t, null, why);
            }
            return super.visitMemberReference(ref, v);
        }

        /**
         * Why javac's binding of a call cannot be trusted, or null when it can: the most
         * specific cause first (an argument or receiver whose type did not compile, then
         * a symbol javac could not bind or synthesized, then any error inside the call).
         */
        private String unjudged(Tree call, List<? extends ExpressionTree> args, ExpressionTree receiver, Target t) {
            for (ExpressionTree arg : args) {
                TypeMirror type = trees.getTypeMirror(new TreePath(getCurrentPath(), arg));
                if (type != null && type.getKind() == TypeKind.ERROR) return "erroneous_argument_type";
            }
            if (receiver != null) {
                TypeMirror type = trees.getTypeMirror(new TreePath(getCurrentPath(), receiver));
                if (type != null && type.getKind() == TypeKind.ERROR) return "erroneous_receiver_type";
            }
            if (t.unjudged != null) return t.unjudged;
            if (hasError(start(u, call), end(u, call))) return "compile_error";
            return null;
        }

        private boolean hasError(long from, long to) {
            long[] ranges = errorsByFile.get(uri);
            if (ranges == null || from == NOPOS) return false;
            for (int i = 0; i < ranges.length; i += 2)
                if (ranges[i] <= to && ranges[i + 1] >= from) return true;
            return false;
        }

        private void emit(String kind, long at, String name, Target target, String implicit, String unjudged) {
            Pos p;
            boolean column = at >= 0;
            if (at >= 0) {
                p = pos(u, at);
            } else {
                Pos c = callers.isEmpty() ? pos(u, 0) : callers.peek();
                p = new Pos(c.file, c.line, 1);
            }
            StringBuilder b = new StringBuilder(160);
            b.append("{\"kind\":").append(quote(kind))
             .append(",\"file\":").append(quote(p.file))
             .append(",\"line\":").append(p.line);
            if (column && implicit == null) b.append(",\"column\":").append(p.column);
            b.append(",\"name\":").append(quote(name));
            if (!callers.isEmpty()) {
                Pos c = callers.peek();
                b.append(",\"caller\":{\"file\":").append(quote(c.file)).append(",\"line\":").append(c.line).append('}');
            }
            b.append(",\"targets\":[");
            if (target.json != null) b.append(target.json);
            b.append(']');
            if (implicit != null) {
                b.append(",\"implicit\":").append(quote(implicit));
            } else if (unjudged != null) {
                b.append(",\"unjudged\":").append(quote(unjudged));
                count("unjudged:" + unjudged);
            } else if (target.json == null) {
                b.append(",\"unjudged\":\"unresolved_symbol\"");
                count("unjudged:unresolved_symbol");
            }
            b.append('}');
            count(kind);
            try {
                out.write(b.toString());
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
