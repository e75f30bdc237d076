// Lists every call javac binds in a Java proof, one JSON object per line:
//   {"kind":"site"|"ref","file","line","column","name","target":{...}}
// where the target is the declaration javac binds (in_tree: its name line) or the
// owner's qualified name plus the member name (outside). Calls the source does not
// write (the implicit super() of a constructor, default constructors) are skipped.
// Used by java_check.py; compiled and run outside proofs/ (no classes in the tree).
//
// usage: java -cp <classes> JavacSites CASE_DIR
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;
import java.util.stream.*;
import javax.lang.model.element.*;
import javax.tools.*;

public class JavacSites {
    static Path root;
    static Trees trees;
    static SourcePositions sp;
    static final Map<CompilationUnitTree, String> texts = new HashMap<>();

    public static void main(String[] args) throws Exception {
        root = Paths.get(args[0]).toAbsolutePath().normalize();
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
        JavaCompiler c = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = c.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        JavacTask task = (JavacTask) c.getTask(null, fm, null, List.of("-proc:none"), null,
                fm.getJavaFileObjectsFromPaths(files));
        List<CompilationUnitTree> units = new ArrayList<>();
        task.parse().forEach(units::add);
        task.analyze();
        trees = Trees.instance(task);
        sp = trees.getSourcePositions();
        for (CompilationUnitTree u : units) texts.put(u, u.getSourceFile().getCharContent(true).toString());
        List<String> out = new ArrayList<>();
        for (CompilationUnitTree u : units) {
            new TreePathScanner<Void, Void>() {
                @Override public Void visitMethodInvocation(MethodInvocationTree node, Void v) {
                    ExpressionTree sel = node.getMethodSelect();
                    long pos; String name;
                    if (sel instanceof IdentifierTree) {
                        name = ((IdentifierTree) sel).getName().toString();
                        pos = sp.getStartPosition(u, sel);
                    } else {
                        name = ((MemberSelectTree) sel).getIdentifier().toString();
                        pos = sp.getEndPosition(u, sel) - name.length();
                    }
                    emit(out, u, "site", pos, name, trees.getElement(getCurrentPath()));
                    return super.visitMethodInvocation(node, v);
                }
                @Override public Void visitNewClass(NewClassTree node, Void v) {
                    Tree id = node.getIdentifier();
                    if (id instanceof ParameterizedTypeTree) id = ((ParameterizedTypeTree) id).getType();
                    long pos; String name;
                    if (id instanceof MemberSelectTree) {
                        name = ((MemberSelectTree) id).getIdentifier().toString();
                        pos = sp.getEndPosition(u, id) - name.length();
                    } else {
                        name = ((IdentifierTree) id).getName().toString();
                        pos = sp.getStartPosition(u, id);
                    }
                    emit(out, u, "site", pos, name, trees.getElement(getCurrentPath()));
                    return super.visitNewClass(node, v);
                }
                @Override public Void visitMemberReference(MemberReferenceTree node, Void v) {
                    String name = node.getName().toString();
                    long pos = sp.getEndPosition(u, node) - name.length();
                    if (!name.equals("<init>"))
                        emit(out, u, "ref", pos, name, trees.getElement(getCurrentPath()));
                    return super.visitMemberReference(node, v);
                }
            }.scan(u, null);
        }
        Collections.sort(out);
        out.forEach(System.out::println);
    }

    static void emit(List<String> out, CompilationUnitTree u, String kind, long pos, String name, Element e) {
        String text = texts.get(u);
        if (pos < 0 || !text.startsWith(name, (int) pos)) return; // a call the source does not write
        LineMap lm = u.getLineMap();
        String file = root.relativize(Paths.get(u.getSourceFile().toUri())).toString();
        StringBuilder b = new StringBuilder();
        b.append(String.format("{\"kind\": \"%s\", \"file\": \"%s\", \"line\": %d, \"column\": %d, \"name\": \"%s\", \"target\": ",
                kind, file, lm.getLineNumber(pos), lm.getColumnNumber(pos), name));
        b.append(target(e));
        b.append("}");
        out.add(b.toString());
    }

    static String target(Element e) {
        if (e == null) return "null";
        TreePath path = trees.getPath(e);
        if (path == null) {
            Element owner = e.getEnclosingElement();
            String o = owner instanceof TypeElement ? ((TypeElement) owner).getQualifiedName().toString() : owner.toString();
            String sym = e.getKind() == ElementKind.CONSTRUCTOR ? o : o + "." + e.getSimpleName();
            return String.format("{\"kind\": \"outside\", \"symbol\": \"%s\"}", sym);
        }
        CompilationUnitTree du = path.getCompilationUnit();
        String text = texts.get(du);
        Tree decl = path.getLeaf();
        long start = sp.getStartPosition(du, decl);
        long end = sp.getEndPosition(du, decl);
        String name = e.getSimpleName().toString();
        long at = -1;
        if (e.getKind() == ElementKind.CONSTRUCTOR) {
            String cls = e.getEnclosingElement().getSimpleName().toString();
            if (end > start && end >= 0) {
                at = find(text, start, "\\b(" + Pattern.quote(cls) + ")\\s*\\(");
            } else { // a default constructor: the class's name
                Tree ct = trees.getTree(e.getEnclosingElement());
                at = find(text, sp.getStartPosition(du, ct), "\\b(?:class|enum|record)\\s+(" + Pattern.quote(cls) + ")\\b");
            }
        } else {
            long from = start;
            if (decl instanceof MethodTree && ((MethodTree) decl).getReturnType() != null)
                from = sp.getEndPosition(du, ((MethodTree) decl).getReturnType());
            at = find(text, from, "\\b(" + Pattern.quote(name) + ")\\s*\\(");
        }
        String file = root.relativize(Paths.get(du.getSourceFile().toUri())).toString();
        return String.format("{\"kind\": \"in_tree\", \"file\": \"%s\", \"line\": %d}", file,
                at < 0 ? -1 : du.getLineMap().getLineNumber(at));
    }

    static long find(String text, long from, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find((int) from) ? m.start(1) : -1;
    }
}
