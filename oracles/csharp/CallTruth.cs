// The mcs oracle's helper: what Mono's C# compiler bound at every call, construction
// and method-group reference of a corpus it compiled with debug symbols.
//
// Built at run time by the adapter (oracles/src/mcs.rs) with
//   mcs -r:<Mono.Cecil 0.11 in the GAC> -r:Mono.CSharp CallTruth.cs
// and run as
//   mono CallTruth.exe --root DIR --defines "A;B" --out FILE
//        --unit NAME DLL LIST [--unit ...] [--refdir DIR ...]
// where each unit is one assembly the adapter compiled (its .dll and .dll.mdb) and
// LIST holds its source files relative to DIR.
//
// Two readings, joined here and normalised by the adapter:
// 1. Declarations come from mcs's own parser (Mono.CSharp.dll, parse only, with the
//    build's conditional symbols so `#if` is read as the build read it). Each member's
//    MemberName.Location is its name token; that is the line a target is named by.
// 2. Calls come from the IL (Mono.Cecil): every call, callvirt and newobj, and every
//    ldftn/ldvirtftn (a method used as a value), with the .mdb sequence point that
//    covers the instruction and the method the compiler bound (MethodReference.Resolve).
//    A bound method of a unit is joined to its declaration by (type, IL name, generic
//    arity, parameter count), ties broken by the written parameter types.
//
// One JSON object per line; this program judges nothing: the adapter names each site
// from the source text, sets apart what no source text writes, and writes the truth.
// Positions are the compiler's: 1-based lines, columns in UTF-16 code units (a tab is
// one), which the adapter turns into byte columns.

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using Cecil = Mono.Cecil;
using Mono.Cecil.Cil;
using CS = Mono.CSharp;
using Mono.CompilerServices.SymbolWriter;

static class CallTruth
{
    static int Main(string[] args)
    {
        try {
            var options = Options.Parse(args);
            using (var output = new StreamWriter(options.Out, false, new UTF8Encoding(false))) {
                output.NewLine = "\n";
                new Reader(options, output).Run();
            }
            return 0;
        } catch (UsageError e) {
            Console.Error.WriteLine("calltruth: " + e.Message);
            return 2;
        }
    }
}

class UsageError : Exception
{
    public UsageError(string message) : base(message) { }
}

class Unit
{
    public string Name;
    public string Dll;
    public List<string> Files = new List<string>();
}

class Options
{
    public string Root;
    public string Out;
    public List<string> Defines = new List<string>();
    public List<Unit> Units = new List<Unit>();
    public List<string> RefDirs = new List<string>();

    public static Options Parse(string[] args)
    {
        var o = new Options();
        for (int i = 0; i < args.Length; i++) {
            string a = args[i];
            Func<string> next = () => {
                if (i + 1 >= args.Length) throw new UsageError(a + " needs a value");
                return args[++i];
            };
            switch (a) {
            case "--root": o.Root = Path.GetFullPath(next()); break;
            case "--out": o.Out = next(); break;
            case "--defines":
                foreach (var d in next().Split(';'))
                    if (d.Length > 0) o.Defines.Add(d);
                break;
            case "--refdir": o.RefDirs.Add(next()); break;
            case "--unit": {
                var u = new Unit { Name = next(), Dll = next() };
                foreach (var line in File.ReadAllLines(next()))
                    if (line.Trim().Length > 0) u.Files.Add(line.Trim());
                o.Units.Add(u);
                break;
            }
            default: throw new UsageError("unknown argument " + a);
            }
        }
        if (o.Root == null || o.Out == null || o.Units.Count == 0)
            throw new UsageError("--root, --out and at least one --unit are required");
        return o;
    }
}

// A place in the tree: a root-relative file and a 1-based line.
struct Pos
{
    public string File;
    public int Line;
    public Pos(string file, int line) { File = file; Line = line; }
}

// One declaration the parser saw, in the terms the IL names it by.
class Decl
{
    public Pos At;
    public string ExplicitInterface;   // "IEnumerable`1" for an explicit implementation
    public List<string> ParamTypes;    // normalised written types
    public string ReturnType;          // conversions only: they overload on it
    public bool Partial;
    public int BodyStart, BodyEnd;     // lines of a constructor's span, 0 when none
}

// What the parser says about one unit: members by IL key, types by IL name, attributes.
class Declarations
{
    public Dictionary<string, List<Decl>> Members = new Dictionary<string, List<Decl>>();
    public Dictionary<string, List<Pos>> Types = new Dictionary<string, List<Pos>>();
    public List<string[]> Attributes = new List<string[]>(); // file, line, column, name
    public int Count;

    public static string Key(string type, string name, int arity, int parameters)
    {
        return type + "::" + name + "`" + arity + "(" + parameters + ")";
    }

    public void Add(string type, string name, int arity, int parameters, Decl d)
    {
        string key = Key(type, name, arity, parameters);
        List<Decl> list;
        if (!Members.TryGetValue(key, out list)) Members[key] = list = new List<Decl>();
        list.Add(d);
        Count++;
    }
}

// Reads one unit's sources with mcs's parser, parse only.
class DeclarationReader
{
    readonly string root;
    readonly Declarations into;

    DeclarationReader(string root, Declarations into)
    {
        this.root = root;
        this.into = into;
    }

    public static Declarations Read(string root, Unit unit, List<string> defines)
    {
        var result = new Declarations();
        var settings = new CS.CompilerSettings();
        foreach (var d in defines) settings.AddConditionalSymbol(d);
        var ctx = new CS.CompilerContext(settings, new CS.StreamReportPrinter(Console.Error));
        // ctx.SourceFiles is settings.SourceFiles: a file added to both would shift every
        // index by one and land every location in the file before.
        foreach (var f in unit.Files)
            ctx.SourceFiles.Add(new CS.SourceFile(f, Path.Combine(root, f), ctx.SourceFiles.Count + 1));
        // Locations index a static table of files: each unit starts it afresh, and every
        // position is read into plain data before the next unit is parsed.
        CS.Location.Reset();
        CS.Location.Initialize(ctx.SourceFiles);
        var module = new CS.ModuleContainer(ctx);
        var session = new CS.ParserSession {
            UseJayGlobalArrays = true,
            LocatedTokens = new CS.LocatedToken[15000]
        };
        foreach (var source in ctx.SourceFiles) {
            using (var stream = File.OpenRead(source.OriginalFullPathName)) {
                var reader = new CS.SeekableStreamReader(stream, settings.Encoding, session.StreamReaderBuffer);
                var file = new CS.CompilationSourceFile(module, source);
                module.AddTypeContainer(file);
                new CS.CSharpParser(reader, file, ctx.Report, session).parse();
            }
        }
        var walker = new DeclarationReader(root, result);
        walker.Attributes(module.OptAttributes);
        foreach (var c in module.Containers) walker.Container(c, "", 0);
        return result;
    }

    // Namespaces hold types; a type holds members and nested types. `depth` bounds the
    // walk (a namespace or type nested 64 deep is not written by people).
    void Container(CS.TypeContainer c, string ns, int depth)
    {
        if (depth > 64) return;
        var td = c as CS.TypeDefinition;
        if (td != null) {
            Type(td, TypeKey(td), depth);
            return;
        }
        var nc = c as CS.NamespaceContainer;
        string inner = ns;
        if (nc != null && !(nc is CS.CompilationSourceFile) && nc.NS != null) inner = nc.NS.Name;
        if (nc != null) Attributes(nc.OptAttributes);
        if (c.Containers == null) return;
        foreach (var child in c.Containers) Container(child, inner, depth + 1);
    }

    static string TypeKey(CS.TypeDefinition td)
    {
        string own = td.MemberName.Name + (td.MemberName.Arity > 0 ? "`" + td.MemberName.Arity : "");
        var parent = td.Parent as CS.TypeDefinition;
        if (parent != null) return TypeKey(parent) + "/" + own;
        string ns = NamespaceOf(td.Parent);
        return ns.Length > 0 ? ns + "." + own : own;
    }

    static string NamespaceOf(CS.TypeContainer c)
    {
        var nc = c as CS.NamespaceContainer;
        if (nc == null || nc.NS == null) return "";
        return nc.NS.Name ?? "";
    }

    void Type(CS.TypeDefinition td, string key, int depth)
    {
        List<Pos> parts;
        if (!into.Types.TryGetValue(key, out parts)) into.Types[key] = parts = new List<Pos>();
        parts.Add(At(td.MemberName.Location));
        Attributes(td.OptAttributes);
        if (td.Members != null)
            foreach (var m in td.Members) {
                if (m is CS.TypeContainer) continue;
                Member(key, m);
            }
        if (td.Containers == null) return;
        foreach (var child in td.Containers) {
            var nested = child as CS.TypeDefinition;
            if (nested != null && depth < 64) Type(nested, TypeKey(nested), depth + 1);
        }
    }

    void Member(string type, CS.MemberCore m)
    {
        Attributes(m.OptAttributes);
        var name = m.MemberName;
        var at = At(name.Location);
        string iface = ExplicitName(name.ExplicitInterface);
        var ctor = m as CS.Constructor;
        if (ctor != null) {
            bool isStatic = (ctor.ModFlags & CS.Modifiers.STATIC) != 0;
            var d = Make(at, null, ctor.ParameterInfo, false);
            if (ctor.Block != null && !ctor.Block.EndLocation.IsNull) {
                d.BodyStart = at.Line;
                d.BodyEnd = ctor.Block.EndLocation.Row;
            }
            into.Add(type, isStatic ? ".cctor" : ".ctor", 0, ctor.ParameterInfo.Count, d);
            return;
        }
        if (m is CS.Destructor) {
            into.Add(type, "Finalize", 0, 0, Make(at, null, null, false));
            return;
        }
        var op = m as CS.Operator;
        if (op != null) {
            var d = Make(at, null, op.ParameterInfo, false);
            if (op.TypeExpression != null) d.ReturnType = TypeNames.Written(op.TypeExpression.GetSignatureForError());
            into.Add(type, CS.Operator.GetMetadataName(op.OperatorType), 0, op.ParameterInfo.Count, d);
            return;
        }
        var method = m as CS.Method;
        if (method != null) {
            bool partial = method.IsPartialDefinition || method.IsPartialImplementation
                || (method.ModFlags & CS.Modifiers.PARTIAL) != 0;
            into.Add(type, name.Name, name.Arity, method.ParameterInfo.Count,
                Make(at, iface, method.ParameterInfo, partial));
            return;
        }
        var indexer = m as CS.Indexer;
        if (indexer != null) {
            int n = indexer.ParameterInfo.Count;
            if (indexer.Get != null) {
                Attributes(indexer.Get.OptAttributes);
                into.Add(type, "get_Item", 0, n, Make(at, iface, indexer.ParameterInfo, false));
            }
            if (indexer.Set != null) {
                Attributes(indexer.Set.OptAttributes);
                var setter = Make(at, iface, indexer.ParameterInfo, false);
                setter.ParamTypes.Add(indexer.TypeExpression == null ? "?"
                    : TypeNames.Written(indexer.TypeExpression.GetSignatureForError()));
                into.Add(type, "set_Item", 0, n + 1, setter);
            }
            return;
        }
        var property = m as CS.PropertyBase;
        if (property != null) {
            if (property.Get != null) {
                Attributes(property.Get.OptAttributes);
                into.Add(type, "get_" + name.Name, 0, 0, Make(at, iface, null, false));
            }
            if (property.Set != null) {
                Attributes(property.Set.OptAttributes);
                into.Add(type, "set_" + name.Name, 0, 1, Make(at, iface, null, false));
            }
            return;
        }
        if (m is CS.EventProperty || m is CS.EventField) {
            into.Add(type, "add_" + name.Name, 0, 1, Make(at, iface, null, false));
            into.Add(type, "remove_" + name.Name, 0, 1, Make(at, iface, null, false));
        }
    }

    Decl Make(Pos at, string iface, CS.ParametersCompiled parameters, bool partial)
    {
        var d = new Decl { At = at, ExplicitInterface = iface, Partial = partial };
        if (parameters != null) {
            d.ParamTypes = new List<string>();
            for (int i = 0; i < parameters.Count; i++) {
                var p = parameters[i];
                Attributes(p.OptAttributes);
                string written = p.TypeExpression == null ? "?" : p.TypeExpression.GetSignatureForError();
                var mod = p.ModFlags & CS.Parameter.Modifier.ModifierMask;
                bool byRef = (mod & (CS.Parameter.Modifier.REF | CS.Parameter.Modifier.OUT)) != 0;
                d.ParamTypes.Add(TypeNames.Written(written) + (byRef ? "&" : ""));
            }
        }
        return d;
    }

    static string ExplicitName(CS.FullNamedExpression e)
    {
        var named = e as CS.ATypeNameExpression;
        if (named == null) return null;
        return named.Name + (named.Arity > 0 ? "`" + named.Arity : "");
    }

    void Attributes(CS.Attributes attributes)
    {
        if (attributes == null) return;
        foreach (var a in attributes.Attrs) {
            var loc = a.Location;
            if (loc.IsNull) continue;
            into.Attributes.Add(new[] { Relative(loc), loc.Row.ToString(), loc.Column.ToString(), a.Name });
        }
    }

    Pos At(CS.Location loc)
    {
        return new Pos(Relative(loc), loc.Row);
    }

    string Relative(CS.Location loc)
    {
        var file = loc.SourceFile;
        return file == null ? "" : file.Name.Replace('\\', '/');
    }
}

// Type names as the parameter tie-break compares them: the last segment of each name,
// keywords as their System types, `T?` as Nullable<T>, generic arguments kept.
static class TypeNames
{
    static readonly Dictionary<string, string> Keywords = new Dictionary<string, string> {
        {"bool", "Boolean"}, {"byte", "Byte"}, {"sbyte", "SByte"}, {"char", "Char"},
        {"decimal", "Decimal"}, {"double", "Double"}, {"float", "Single"}, {"int", "Int32"},
        {"uint", "UInt32"}, {"long", "Int64"}, {"ulong", "UInt64"}, {"short", "Int16"},
        {"ushort", "UInt16"}, {"object", "Object"}, {"string", "String"}, {"void", "Void"},
        {"dynamic", "Object"},
    };

    // A written type, as mcs prints it back (`IList<string>`, `int?`, `T[]`).
    public static string Written(string text)
    {
        int at = 0;
        string result = WrittenType(text.Replace(" ", ""), ref at, 0);
        return result;
    }

    static string WrittenType(string s, ref int at, int depth)
    {
        if (depth > 32) return "?";
        // A dotted name; only its last segment (and that segment's arguments) is kept.
        string last = "";
        string args = "";
        while (at < s.Length) {
            int start = at;
            while (at < s.Length && (char.IsLetterOrDigit(s[at]) || s[at] == '_' || s[at] == '@')) at++;
            last = s.Substring(start, at - start).TrimStart('@');
            args = "";
            if (at < s.Length && s[at] == '<') {
                at++;
                var parts = new List<string>();
                while (at < s.Length && s[at] != '>') {
                    parts.Add(WrittenType(s, ref at, depth + 1));
                    if (at < s.Length && s[at] == ',') at++;
                }
                at++;
                args = "<" + string.Join(",", parts) + ">";
            }
            if (at + 1 < s.Length && s[at] == ':' && s[at + 1] == ':') { at += 2; continue; }
            if (at < s.Length && s[at] == '.') { at++; continue; }
            break;
        }
        string name;
        if (Keywords.TryGetValue(last, out name)) last = name;
        string result = last + args;
        while (at < s.Length) {
            char c = s[at];
            if (c == '?') { result = "Nullable<" + result + ">"; at++; }
            else if (c == '*') { result += "*"; at++; }
            else if (c == '[') {
                int close = s.IndexOf(']', at);
                if (close < 0) break;
                result += s.Substring(at, close - at + 1);
                at = close + 1;
            } else break;
        }
        return result;
    }

    // A type the IL names, in the same terms.
    public static string Of(Cecil.TypeReference t, int depth = 0)
    {
        if (t == null || depth > 32) return "?";
        var byRef = t as Cecil.ByReferenceType;
        if (byRef != null) return Of(byRef.ElementType, depth + 1) + "&";
        var array = t as Cecil.ArrayType;
        if (array != null) return Of(array.ElementType, depth + 1) + "[" + new string(',', array.Rank - 1) + "]";
        var pointer = t as Cecil.PointerType;
        if (pointer != null) return Of(pointer.ElementType, depth + 1) + "*";
        var required = t as Cecil.RequiredModifierType;
        if (required != null) return Of(required.ElementType, depth + 1);
        var optional = t as Cecil.OptionalModifierType;
        if (optional != null) return Of(optional.ElementType, depth + 1);
        var generic = t as Cecil.GenericInstanceType;
        if (generic != null) {
            var parts = generic.GenericArguments.Select(a => Of(a, depth + 1));
            return Bare(generic.ElementType.Name) + "<" + string.Join(",", parts) + ">";
        }
        return Bare(t.Name);
    }

    public static string Bare(string name)
    {
        int tick = name.IndexOf('`');
        return tick < 0 ? name : name.Substring(0, tick);
    }

    // Without generic arguments, for the looser second comparison.
    public static string Loose(string normalised)
    {
        var sb = new StringBuilder();
        int depth = 0;
        foreach (char c in normalised) {
            if (c == '<') depth++;
            else if (c == '>') depth--;
            else if (depth == 0) sb.Append(c);
        }
        return sb.ToString();
    }
}

// A tiny JSON writer: the helper needs no library beside Cecil and mcs.
class Json
{
    readonly StringBuilder sb = new StringBuilder();
    bool first = true;

    public Json() { sb.Append('{'); }

    Json Key(string k)
    {
        if (!first) sb.Append(',');
        first = false;
        Str(sb, k);
        sb.Append(':');
        return this;
    }

    public Json S(string k, string v) { if (v != null) { Key(k); Str(sb, v); } return this; }
    public Json N(string k, int v) { Key(k); sb.Append(v); return this; }
    public Json B(string k, bool v) { if (v) { Key(k); sb.Append("true"); } return this; }

    public Json Positions(string k, IEnumerable<Pos> ps)
    {
        Key(k);
        sb.Append('[');
        bool f = true;
        foreach (var p in ps) {
            if (!f) sb.Append(',');
            f = false;
            sb.Append("{\"file\":");
            Str(sb, p.File);
            sb.Append(",\"line\":").Append(p.Line).Append('}');
        }
        sb.Append(']');
        return this;
    }

    public Json Position(string k, Pos? p)
    {
        if (p == null) return this;
        Key(k);
        sb.Append("{\"file\":");
        Str(sb, p.Value.File);
        sb.Append(",\"line\":").Append(p.Value.Line).Append('}');
        return this;
    }

    public override string ToString() { return sb.ToString() + "}"; }

    static void Str(StringBuilder sb, string s)
    {
        sb.Append('"');
        foreach (char c in s) {
            switch (c) {
            case '"': sb.Append("\\\""); break;
            case '\\': sb.Append("\\\\"); break;
            case '\n': sb.Append("\\n"); break;
            case '\r': sb.Append("\\r"); break;
            case '\t': sb.Append("\\t"); break;
            default:
                if (c < 0x20) sb.Append("\\u").Append(((int)c).ToString("x4"));
                else sb.Append(c);
                break;
            }
        }
        sb.Append('"');
    }
}

// The sequence point that covers an instruction.
struct Point
{
    public string File;
    public int Offset, Line, Column, EndLine, EndColumn;
    public bool Hidden;
}

class Reader
{
    readonly Options options;
    readonly TextWriter output;
    readonly Dictionary<string, int> unitOf = new Dictionary<string, int>();
    readonly List<Declarations> declarations = new List<Declarations>();
    readonly List<Cecil.ModuleDefinition> modules = new List<Cecil.ModuleDefinition>();
    readonly List<MonoSymbolFile> symbols = new List<MonoSymbolFile>();
    readonly Dictionary<Cecil.MethodDefinition, Match> matches = new Dictionary<Cecil.MethodDefinition, Match>();
    readonly Dictionary<string, List<Cecil.MethodDefinition>> overrides = new Dictionary<string, List<Cecil.MethodDefinition>>();
    readonly Dictionary<Cecil.TypeDefinition, Cecil.MethodDefinition> kickoff = new Dictionary<Cecil.TypeDefinition, Cecil.MethodDefinition>();
    readonly Dictionary<Cecil.MethodDefinition, Point?> firstPoint = new Dictionary<Cecil.MethodDefinition, Point?>();
    int unmatched, ambiguous, unresolved, bodies;

    public Reader(Options options, TextWriter output)
    {
        this.options = options;
        this.output = output;
    }

    // How a method of a unit is joined to the parser's declarations.
    class Match
    {
        public List<Pos> Targets = new List<Pos>();
        public string Of = "none";   // member | type | ambiguous | missing | generated
        public Decl Decl;
    }

    public void Run()
    {
        var resolver = new Cecil.DefaultAssemblyResolver();
        foreach (var d in options.RefDirs) resolver.AddSearchDirectory(d);
        foreach (var u in options.Units) resolver.AddSearchDirectory(Path.GetDirectoryName(Path.GetFullPath(u.Dll)));
        var parameters = new Cecil.ReaderParameters { AssemblyResolver = resolver };
        for (int i = 0; i < options.Units.Count; i++) {
            var unit = options.Units[i];
            declarations.Add(DeclarationReader.Read(options.Root, unit, options.Defines));
            var assembly = Cecil.AssemblyDefinition.ReadAssembly(unit.Dll, parameters);
            unitOf[assembly.Name.Name] = i;
            modules.Add(assembly.MainModule);
            symbols.Add(MonoSymbolFile.ReadSymbolFile(unit.Dll + ".mdb"));
        }
        foreach (var module in modules)
            foreach (var t in AllTypes(module)) {
                RecordOverrides(t);
                RecordKickoffs(t);
            }
        for (int i = 0; i < modules.Count; i++)
            foreach (var t in AllTypes(modules[i]))
                foreach (var m in t.Methods)
                    if (m.HasBody) Body(i, m);
        for (int i = 0; i < declarations.Count; i++)
            foreach (var a in declarations[i].Attributes)
                output.WriteLine(new Json().S("kind", "attribute").S("file", a[0])
                    .N("line", int.Parse(a[1])).N("col", int.Parse(a[2])).S("name", a[3]).ToString());
        int decls = declarations.Sum(d => d.Count);
        Console.Error.WriteLine("calltruth: {0} declarations, {1} methods joined, {2} without a declaration, {3} ambiguous, {4} callees unresolved",
            decls, matches.Count(m => m.Value.Of == "member"), unmatched, ambiguous, unresolved);
    }

    static IEnumerable<Cecil.TypeDefinition> AllTypes(Cecil.ModuleDefinition module)
    {
        var stack = new Stack<Cecil.TypeDefinition>(module.Types.Reverse());
        while (stack.Count > 0) {
            var t = stack.Pop();
            yield return t;
            for (int i = t.NestedTypes.Count - 1; i >= 0; i--) stack.Push(t.NestedTypes[i]);
        }
    }

    int? UnitOf(Cecil.MethodDefinition m)
    {
        int i;
        return unitOf.TryGetValue(m.Module.Assembly.Name.Name, out i) ? i : (int?)null;
    }

    // ----- what the compiler made ------------------------------------------------------

    public static bool IsGenerated(Cecil.TypeDefinition t)
    {
        for (int depth = 0; t != null && depth < 64; depth++, t = t.DeclaringType) {
            if (t.Name.StartsWith("<")) return true;
            if (t.CustomAttributes.Any(a => a.AttributeType.FullName == "System.Runtime.CompilerServices.CompilerGeneratedAttribute"))
                return true;
        }
        return false;
    }

    static bool IsGenerated(Cecil.MethodDefinition m)
    {
        return m.Name.StartsWith("<") || IsGenerated(m.DeclaringType);
    }

    // A lambda or anonymous method's body: `<M>m__0`, `<>m__0`, a method of `<>c`.
    static bool IsLambdaBody(Cecil.MethodDefinition m)
    {
        return m.Name.StartsWith("<") && m.Name.Contains("m__")
            || m.Name.StartsWith("<") && m.Name.Contains(">b__");
    }

    static bool IsDelegate(Cecil.TypeDefinition t)
    {
        return t != null && t.BaseType != null && t.BaseType.FullName == "System.MulticastDelegate";
    }

    // The user method that creates a state machine (iterator, async) runs its MoveNext.
    void RecordKickoffs(Cecil.TypeDefinition t)
    {
        foreach (var m in t.Methods) {
            if (!m.HasBody) continue;
            foreach (var ins in m.Body.Instructions) {
                Cecil.TypeReference touched = null;
                var mr = ins.Operand as Cecil.MethodReference;
                if (mr != null && ins.OpCode.Code == Code.Newobj) touched = mr.DeclaringType;
                var tr = ins.Operand as Cecil.TypeReference;
                if (tr != null && ins.OpCode.Code == Code.Initobj) touched = tr;
                if (touched == null) continue;
                var def = SafeResolve(touched);
                if (def == null || def == t || !def.Name.StartsWith("<") || def.Name.Contains("AnonStorey")) continue;
                if (!kickoff.ContainsKey(def)) kickoff[def] = m;
            }
        }
    }

    // ----- overrides -------------------------------------------------------------------

    static string SlotKey(Cecil.MethodDefinition m)
    {
        return m.Module.Assembly.Name.Name + "|" + m.FullName;
    }

    // Each in-tree override, recorded under the method it overrides (the nearest base
    // declaration of the same name and signature).
    void RecordOverrides(Cecil.TypeDefinition t)
    {
        foreach (var m in t.Methods) {
            if (!m.IsVirtual || m.IsNewSlot || m.HasOverrides && m.Name.Contains(".")) continue;
            var baseMethod = Overridden(m);
            if (baseMethod == null) continue;
            string key = SlotKey(baseMethod);
            List<Cecil.MethodDefinition> list;
            if (!overrides.TryGetValue(key, out list)) overrides[key] = list = new List<Cecil.MethodDefinition>();
            list.Add(m);
        }
    }

    Cecil.MethodDefinition Overridden(Cecil.MethodDefinition m)
    {
        Cecil.TypeReference baseRef = m.DeclaringType.BaseType;
        for (int depth = 0; baseRef != null && depth < 64; depth++) {
            var baseDef = SafeResolve(baseRef);
            if (baseDef == null) return null;
            var generic = baseRef as Cecil.GenericInstanceType;
            foreach (var candidate in baseDef.Methods) {
                if (!candidate.IsVirtual || candidate.Name != m.Name
                    || candidate.Parameters.Count != m.Parameters.Count
                    || candidate.GenericParameters.Count != m.GenericParameters.Count) continue;
                bool same = true;
                for (int i = 0; i < m.Parameters.Count && same; i++)
                    same = TypeNames.Of(Substitute(candidate.Parameters[i].ParameterType, baseDef, generic))
                        == TypeNames.Of(m.Parameters[i].ParameterType);
                if (same) return candidate;
            }
            baseRef = baseDef.BaseType == null ? null : Inflate(baseDef.BaseType, baseDef, generic);
        }
        return null;
    }

    // A base type's generic parameters replaced by the arguments the derived type gave.
    static Cecil.TypeReference Substitute(Cecil.TypeReference t, Cecil.TypeDefinition owner, Cecil.GenericInstanceType args)
    {
        if (args == null) return t;
        var gp = t as Cecil.GenericParameter;
        if (gp != null && gp.Owner == owner && gp.Position < args.GenericArguments.Count)
            return args.GenericArguments[gp.Position];
        return t;
    }

    static Cecil.TypeReference Inflate(Cecil.TypeReference t, Cecil.TypeDefinition owner, Cecil.GenericInstanceType args)
    {
        var gi = t as Cecil.GenericInstanceType;
        if (gi == null || args == null) return t;
        var result = new Cecil.GenericInstanceType(gi.ElementType);
        foreach (var a in gi.GenericArguments) result.GenericArguments.Add(Substitute(a, owner, args));
        return result;
    }

    // Every in-tree override of `m`'s slot, transitively.
    List<Cecil.MethodDefinition> Chain(Cecil.MethodDefinition m)
    {
        var result = new List<Cecil.MethodDefinition>();
        var queue = new Queue<Cecil.MethodDefinition>();
        queue.Enqueue(m);
        var seen = new HashSet<string>();
        while (queue.Count > 0 && result.Count < 10000) {
            List<Cecil.MethodDefinition> list;
            if (!overrides.TryGetValue(SlotKey(queue.Dequeue()), out list)) continue;
            foreach (var o in list)
                if (seen.Add(SlotKey(o))) {
                    result.Add(o);
                    queue.Enqueue(o);
                }
        }
        return result;
    }

    // ----- joining methods to declarations ---------------------------------------------

    Match Join(Cecil.MethodDefinition m)
    {
        Match found;
        if (matches.TryGetValue(m, out found)) return found;
        found = new Match();
        matches[m] = found;
        int? unit = UnitOf(m);
        if (unit == null) return found;
        if (IsGenerated(m)) {
            found.Of = "generated";
            return found;
        }
        var decls = declarations[unit.Value];
        string type = m.DeclaringType.FullName;
        string name = m.Name;
        string iface = null;
        if (m.HasOverrides && name.IndexOf('.') > 0) {
            iface = m.Overrides[0].DeclaringType.Name;
            name = name.Substring(name.LastIndexOf('.') + 1);
        }
        List<Decl> candidates;
        decls.Members.TryGetValue(Declarations.Key(type, name, m.GenericParameters.Count, m.Parameters.Count), out candidates);
        var fitting = candidates == null ? new List<Decl>()
            : candidates.Where(d => d.ExplicitInterface == iface).ToList();
        if (fitting.Count == 0 && iface != null && candidates != null)
            // The interface written without its arity in the tree (`IEnumerable<T>` is
            // `IEnumerable`1`): compare bare names.
            fitting = candidates.Where(d => d.ExplicitInterface != null
                && TypeNames.Bare(d.ExplicitInterface) == TypeNames.Bare(iface)).ToList();
        if (fitting.Count > 1) fitting = ByParameters(m, fitting);
        if (fitting.Count > 1 && fitting.Any(d => d.ReturnType != null)) {
            string returns = TypeNames.Of(m.ReturnType);
            var byReturn = fitting.Where(d => d.ReturnType == returns).ToList();
            if (byReturn.Count > 0) fitting = byReturn;
        }
        if (fitting.Count == 0) {
            List<Pos> parts;
            if (decls.Types.TryGetValue(type, out parts)) {
                // A member the compiler made in a declared type: a default constructor,
                // a delegate's Invoke, an enum's members. Its declaration is the type.
                found.Of = "type";
                found.Targets.AddRange(parts);
            } else {
                found.Of = "missing";
                unmatched++;
                Console.Error.WriteLine("calltruth: no declaration for " + m.FullName);
            }
            return found;
        }
        if (fitting.Count > 1 && !fitting.All(d => d.Partial)) {
            found.Of = "ambiguous";
            ambiguous++;
            Console.Error.WriteLine("calltruth: ambiguous declaration for " + m.FullName);
        } else found.Of = "member";
        found.Decl = fitting[0];
        found.Targets.AddRange(fitting.Select(d => d.At));
        return found;
    }

    static List<Decl> ByParameters(Cecil.MethodDefinition m, List<Decl> candidates)
    {
        var il = m.Parameters.Select(p => TypeNames.Of(p.ParameterType)).ToList();
        var exact = candidates.Where(d => d.ParamTypes != null && d.ParamTypes.SequenceEqual(il)).ToList();
        if (exact.Count >= 1) return exact;
        var loose = il.Select(TypeNames.Loose).ToList();
        var near = candidates.Where(d => d.ParamTypes != null
            && d.ParamTypes.Select(TypeNames.Loose).SequenceEqual(loose)).ToList();
        return near.Count >= 1 ? near : candidates;
    }

    // ----- the IL walk -----------------------------------------------------------------

    void Body(int unit, Cecil.MethodDefinition m)
    {
        var lines = LineTable(unit, m);
        Pos? caller;
        string callerKind = CallerOf(unit, m, lines, out caller);
        var ctorSpan = m.IsConstructor ? Join(m) : null;
        int body = ++bodies;
        foreach (var ins in m.Body.Instructions) {
            string op;
            switch (ins.OpCode.Code) {
            case Code.Call: op = "call"; break;
            case Code.Callvirt: op = "callvirt"; break;
            case Code.Newobj: op = "newobj"; break;
            case Code.Ldftn: op = "ldftn"; break;
            case Code.Ldvirtftn: op = "ldvirtftn"; break;
            default: continue;
            }
            var callee = (Cecil.MethodReference)ins.Operand;
            var point = Covering(lines, ins.Offset);
            var row = new Json().S("kind", "call").S("op", op).N("body", body);
            Pos? siteCaller = caller;
            string siteKind = callerKind;
            if (point != null) {
                var p = point.Value;
                row.S("file", p.File).N("line", p.Line).N("col", p.Column);
                if (p.EndLine > 0) row.N("end_line", p.EndLine).N("end_col", p.EndColumn);
                row.B("hidden", p.Hidden);
                // A constructor's IL also runs the field initialisers, written outside
                // its span: their caller is the type.
                if (ctorSpan != null && (ctorSpan.Of != "member" || ctorSpan.Decl == null
                        || ctorSpan.Decl.BodyEnd == 0
                        || p.File != ctorSpan.Decl.At.File || p.Line < ctorSpan.Decl.BodyStart
                        || p.Line > ctorSpan.Decl.BodyEnd)) {
                    siteCaller = TypePart(unit, m.DeclaringType, p.File);
                    siteKind = "field_init";
                }
            }
            row.Position("caller", siteCaller).S("caller_kind", siteKind);
            Callee(row, callee, op);
            output.WriteLine(row.ToString());
        }
    }

    Pos? TypePart(int unit, Cecil.TypeDefinition t, string file)
    {
        List<Pos> parts;
        if (!declarations[unit].Types.TryGetValue(t.FullName, out parts)) return null;
        foreach (var p in parts) if (p.File == file) return p;
        return null;
    }

    // The caller of the calls in `m`: its declaration; for a lambda body, the lambda
    // (its first line); for a state machine's methods, the method that creates it.
    string CallerOf(int unit, Cecil.MethodDefinition m, List<Point> lines, out Pos? caller)
    {
        caller = null;
        for (int depth = 0; depth < 16 && m != null; depth++) {
            if (!IsGenerated(m)) {
                var j = Join(m);
                if (j.Targets.Count > 0) caller = j.Targets[0];
                return depth == 0 ? (j.Of == "type" ? "generated_member" : "member") : "state_machine";
            }
            if (IsLambdaBody(m)) {
                var first = FirstPoint(m);
                if (first != null) caller = new Pos(first.Value.File, first.Value.Line);
                return "lambda";
            }
            Cecil.MethodDefinition creator;
            var t = m.DeclaringType;
            while (t != null && !kickoff.ContainsKey(t) && t.DeclaringType != null && IsGenerated(t.DeclaringType)) t = t.DeclaringType;
            if (t == null || !kickoff.TryGetValue(t, out creator)) creator = ByGeneratedName(m.DeclaringType);
            if (creator == null) return "generated";
            m = creator;
        }
        return "generated";
    }

    // The user method a state machine was made for, by mcs's name for it: `<M>c__async0`
    // in M's type. mcs builds an async state machine, a struct, in a zeroed local
    // (no newobj, no initobj), so no instruction names it. Null among overloads.
    static Cecil.MethodDefinition ByGeneratedName(Cecil.TypeDefinition t)
    {
        Cecil.TypeDefinition generated = null;
        for (int depth = 0; t != null && depth < 64 && IsGenerated(t); depth++) {
            generated = t;
            t = t.DeclaringType;
        }
        if (generated == null || t == null) return null;
        int close = generated.Name.IndexOf('>');
        if (!generated.Name.StartsWith("<") || close < 2) return null;
        string name = generated.Name.Substring(1, close - 1);
        var found = t.Methods.Where(x => x.Name == name && !IsGenerated(x)).ToList();
        return found.Count == 1 ? found[0] : null;
    }

    Point? FirstPoint(Cecil.MethodDefinition m)
    {
        Point? p;
        if (firstPoint.TryGetValue(m, out p)) return p;
        p = null;
        int? unit = UnitOf(m);
        if (unit != null) {
            foreach (var point in LineTable(unit.Value, m))
                if (!point.Hidden) { p = point; break; }
        }
        firstPoint[m] = p;
        return p;
    }

    // The method's line table: (offset, point) in offset order; hidden entries kept.
    readonly Dictionary<Cecil.MethodDefinition, List<Point>> tables = new Dictionary<Cecil.MethodDefinition, List<Point>>();

    List<Point> LineTable(int unit, Cecil.MethodDefinition m)
    {
        List<Point> table;
        if (tables.TryGetValue(m, out table)) return table;
        table = new List<Point>();
        var entry = symbols[unit].GetMethodByToken(m.MetadataToken.ToInt32());
        if (entry != null) {
            var numbers = entry.GetLineNumberTable().LineNumbers.OrderBy(l => l.Offset).ToList();
            foreach (var l in numbers) {
                var source = symbols[unit].GetSourceFile(l.File == 0 ? entry.CompileUnit.SourceFile.Index : l.File);
                table.Add(new Point {
                    File = Relative(source.FileName), Offset = l.Offset, Line = l.Row, Column = l.Column,
                    EndLine = l.EndRow, EndColumn = l.EndColumn, Hidden = l.IsHidden || l.Row == 0xfeefee
                });
            }
        }
        tables[m] = table;
        return table;
    }

    // The last non-hidden entry at or before the instruction, marked hidden when the
    // nearest entry is a hidden one (code the compiler wrote, such as a foreach's
    // MoveNext).
    Point? Covering(List<Point> table, int offset)
    {
        bool nearestHidden = false;
        bool nearest = true;
        for (int i = table.Count - 1; i >= 0; i--) {
            if (table[i].Offset > offset) continue;
            if (table[i].Hidden) {
                if (nearest) nearestHidden = true;
                nearest = false;
                continue;
            }
            var p = table[i];
            p.Hidden = nearestHidden;
            return p;
        }
        return null;
    }

    string Relative(string path)
    {
        string full = Path.GetFullPath(path);
        string root = options.Root.TrimEnd('/') + "/";
        return full.StartsWith(root) ? full.Substring(root.Length) : full;
    }

    static Cecil.TypeDefinition SafeResolve(Cecil.TypeReference t)
    {
        try { return t.Resolve(); } catch (Exception) { return null; }
    }

    static Cecil.MethodDefinition SafeResolve(Cecil.MethodReference m)
    {
        try { return m.Resolve(); } catch (Exception) { return null; }
    }

    // What the compiler bound: the method, what kind of member it is, where it is
    // declared in the tree (or that it is outside), and its override chain.
    void Callee(Json row, Cecil.MethodReference reference, string op)
    {
        var def = SafeResolve(reference);
        row.S("type", reference.DeclaringType.FullName).S("name", reference.Name);
        if (def == null) {
            unresolved++;
            row.B("unresolved", true).N("params", reference.Parameters.Count)
               .S("type_name", TypeNames.Bare(reference.DeclaringType.Name));
            if (reference.DeclaringType is Cecil.ArrayType) row.B("array", true);
            return;
        }
        var type = def.DeclaringType;
        row.S("type_name", TypeNames.Bare(type.Name)).N("params", def.Parameters.Count);
        if (type.DeclaringType != null) row.S("outer_name", TypeNames.Bare(type.DeclaringType.Name));
        string semantics = def.IsGetter ? "getter" : def.IsSetter ? "setter"
            : def.IsAddOn ? "adder" : def.IsRemoveOn ? "remover" : null;
        row.S("semantics", semantics);
        if (semantics != null) {
            // The property or event the accessor belongs to, by its source name.
            var property = type.Properties.FirstOrDefault(p => p.GetMethod == def || p.SetMethod == def);
            if (property != null) {
                row.S("member", TypeNames.Bare(property.Name.Substring(property.Name.LastIndexOf('.') + 1)));
                row.B("indexer", property.HasParameters);
            }
            var ev = type.Events.FirstOrDefault(e => e.AddMethod == def || e.RemoveMethod == def);
            if (ev != null) row.S("member", ev.Name.Substring(ev.Name.LastIndexOf('.') + 1));
        }
        row.B("special", def.IsSpecialName).B("virtual", def.IsVirtual).B("static", def.IsStatic)
           .B("generated", IsGenerated(def)).B("delegate", IsDelegate(type))
           .B("value_type", type.IsValueType).B("interface", type.IsInterface);
        if (type.Name.StartsWith("<>__AnonType") || type.Name.StartsWith("<>f__AnonymousType")) row.B("anonymous_type", true);
        if (def.HasOverrides && def.Name.IndexOf('.') > 0) row.S("basename", def.Name.Substring(def.Name.LastIndexOf('.') + 1));
        int? unit = UnitOf(def);
        if (unit == null) {
            row.S("asm", def.Module.Assembly.Name.Name);
            AddChain(row, def, op);
            return;
        }
        row.B("in_tree", true).S("asm", def.Module.Assembly.Name.Name);
        var j = Join(def);
        row.S("target_of", j.Of).Positions("targets", j.Targets);
        AddChain(row, def, op);
    }

    // A virtual call names the slot's original declaration; every in-tree override of
    // that slot is listed apart, for the adapter's virtual-call rule.
    void AddChain(Json row, Cecil.MethodDefinition def, string op)
    {
        if (op != "callvirt" || !def.IsVirtual) return;
        var chain = Chain(def);
        if (chain.Count == 0) return;
        var positions = new List<Pos>();
        foreach (var o in chain) {
            var j = Join(o);
            if (j.Of == "member") positions.AddRange(j.Targets);
        }
        if (positions.Count > 0) row.Positions("chain", positions);
    }
}
