import SwiftSyntax

/// The `equality` mutants of a struct the copies compare with `==` but do not copy: an explicit
/// `static func ==` in an extension of the (imported) type, which shadows the imported `==` in the
/// generated module, so the copies call it. Mutant `id` compares every stored field but one; with
/// no mutant active it is the original: every stored field in declaration order for a synthesized
/// `==`, or the hand-written body (whose own operators are mutated as any copied code).
enum EqualitySchema {
    /// The extension for struct `name` of `tree`, or an error when the file declares no such struct.
    static func extensionText(of name: String, in tree: SourceFileSyntax, rewriter: SchemataRewriter, file: String) throws -> String {
        guard let declaration = tree.statements.lazy.compactMap({ $0.item.as(StructDeclSyntax.self) }).first(where: { $0.name.text == name }) else {
            throw MutationError("\(file): no struct \(name) whose equality to mutate")
        }
        let fields = storedFields(of: declaration)
        guard !fields.isEmpty else { throw MutationError("\(file): struct \(name) has no stored field") }
        let handWritten = equalityFunction(in: declaration.memberBlock)
            ?? tree.statements.lazy.compactMap { $0.item.as(ExtensionDeclSyntax.self) }
                .filter { $0.extendedType.trimmedDescription == name }
                .compactMap { equalityFunction(in: $0.memberBlock) }.first
        var lhs = "lhs", rhs = "rhs"
        var original: String
        if let handWritten {
            let parameters = handWritten.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
            guard parameters.count == 2, let rewritten = rewriter.rewrite(handWritten).as(FunctionDeclSyntax.self),
                  let body = rewritten.body else {
                throw MutationError("\(file): \(name).== is not a function of two parameters with a body")
            }
            (lhs, rhs) = (parameters[0], parameters[1])
            // A body of one expression returns it implicitly; after the mutants' `if`s it must say so.
            if body.statements.count == 1, let only = body.statements.first, case .expr(let expression) = only.item {
                original = "\n        return \(expression.trimmedDescription)"
            } else {
                original = body.statements.description
            }
        } else {
            original = "\n        return \(comparison(of: fields.map(\.name), lhs, rhs))"
        }
        var lines: [String] = []
        for (index, field) in fields.enumerated() {
            let id = rewriter.recordDroppedField(type: name, field: field.name, line: field.line)
            var kept = fields.map(\.name)
            kept.remove(at: index)
            lines.append("        if mutant(\(id)) { return \(comparison(of: kept, lhs, rhs)) }")
        }
        return """

            extension \(name) {
                // Equality field by field: mutant `id` leaves one stored field out. (`@usableFromInline`: the
                // copies that call it are `@inlinable`.)
                @usableFromInline static func == (\(lhs): \(name), \(rhs): \(name)) -> Bool {
            \(lines.joined(separator: "\n"))\(original)
                }
            }

            """
    }

    /// `lhs.a == rhs.a && …` over `fields`; `true` for none.
    private static func comparison(of fields: [String], _ lhs: String, _ rhs: String) -> String {
        fields.isEmpty ? "true" : fields.map { "\(lhs).\($0) == \(rhs).\($0)" }.joined(separator: " && ")
    }

    /// The stored instance properties of `declaration`, in order, with their lines: `var` and `let`
    /// bindings without accessors (or with observers only), not `static`.
    static func storedFields(of declaration: StructDeclSyntax) -> [(name: String, line: Int)] {
        let converter = SourceLocationConverter(fileName: "", tree: declaration.root)
        var fields: [(name: String, line: Int)] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else { continue }
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self), isStored(binding) else { continue }
                fields.append((pattern.identifier.text, binding.startLocation(converter: converter).line))
            }
        }
        return fields
    }

    private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessors = binding.accessorBlock?.accessors else { return true }
        guard let list = accessors.as(AccessorDeclListSyntax.self) else { return false }  // a getter's body
        return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
    }

    /// A `static func ==` among `members`.
    private static func equalityFunction(in members: MemberBlockSyntax) -> FunctionDeclSyntax? {
        members.members.lazy.compactMap { $0.decl.as(FunctionDeclSyntax.self) }.first {
            $0.name.text == "==" && $0.modifiers.contains { $0.name.text == "static" }
        }
    }
}
