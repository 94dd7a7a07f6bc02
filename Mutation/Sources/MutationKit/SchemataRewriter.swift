import SwiftOperators
import SwiftParser
import SwiftSyntax

/// Rewrites declarations into mutant schemata: every mutation point becomes a choice between the
/// original and the mutated code, made at run time by `mutant(id)` (true only for the active
/// mutant), so one build holds every mutant. The original code stays the `false` branch.
final class SchemataRewriter: SyntaxRewriter {
    private let file: String
    private let converter: SourceLocationConverter
    private(set) var mutants: [Mutant] = []
    private var nextID: Int
    private var occurrences: [String: Int] = [:]

    /// A rewriter of declarations of `tree` (the folded source of `file`), numbering mutants from `firstID`.
    init(file: String, tree: SourceFileSyntax, firstID: Int) {
        self.file = file
        converter = SourceLocationConverter(fileName: file, tree: tree)
        nextID = firstID
        super.init(viewMode: .sourceAccurate)
    }

    /// The id the next mutant will get.
    var followingID: Int { nextID }

    private func record(_ node: some SyntaxProtocol, _ kind: MutationKind, _ original: String, _ replacement: String) -> Int {
        let function = Self.enclosingName(of: Syntax(node))
        let counter = "\(function) \(original) \(replacement)"
        let occurrence = occurrences[counter, default: 0]
        occurrences[counter] = occurrence + 1
        let line = node.startLocation(converter: converter).line
        let mutant = Mutant(
            id: nextID, file: file, line: line, function: function, kind: kind, original: original, replacement: replacement, occurrence: occurrence
        )
        nextID += 1
        mutants.append(mutant)
        return mutant.id
    }

    /// Records the `equality` mutant of struct `type` that leaves `field` (declared on `line`) out of its `==`.
    func recordDroppedField(type: String, field: String, line: Int) -> Int {
        let function = "\(type).=="
        let counter = "\(function) \(field) dropped"
        let occurrence = occurrences[counter, default: 0]
        occurrences[counter] = occurrence + 1
        let mutant = Mutant(
            id: nextID, file: file, line: line, function: function, kind: .equality, original: field, replacement: "dropped", occurrence: occurrence
        )
        nextID += 1
        mutants.append(mutant)
        return mutant.id
    }

    // MARK: Operators

    static let flips: [String: String] = ["<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "&&": "||", "||": "&&"]

    override func visit(_ node: InfixOperatorExprSyntax) -> ExprSyntax {
        guard let op = node.operator.as(BinaryOperatorExprSyntax.self), let flipped = Self.flips[op.operator.text], Self.isMutable(node) else {
            return super.visit(node)
        }
        let kind: MutationKind = op.operator.text == "&&" || op.operator.text == "||" ? .logical : .relational
        let id = record(node, kind, op.operator.text, flipped)
        let rewritten = super.visit(node)
        guard let infix = rewritten.as(InfixOperatorExprSyntax.self) else { return rewritten }
        let mutated = infix.with(\.operator, ExprSyntax(op.with(\.operator, .binaryOperator(flipped, leadingTrivia: op.operator.leadingTrivia, trailingTrivia: op.operator.trailingTrivia))))
        return choice(id, mutated: ExprSyntax(mutated), original: rewritten, trivia: node)
    }

    override func visit(_ node: IntegerLiteralExprSyntax) -> ExprSyntax {
        guard Self.isMutable(node), Self.isInBody(node), let value = Int(node.literal.text.replacingOccurrences(of: "_", with: ""), radix: Self.radix(node.literal.text)) else {
            return super.visit(node)
        }
        let text = node.literal.text
        let up = record(node, .literal, text, String(value + 1))
        _ = record(node, .literal, text, String(value - 1))
        return Self.parseExpression(
            "\(node.leadingTrivia)mutantLiteral(\(up), \(node.trimmedDescription))\(node.trailingTrivia)"
        )
    }

    override func visit(_ node: FunctionCallExprSyntax) -> ExprSyntax {
        guard let callee = node.calledExpression.as(DeclReferenceExprSyntax.self), ["min", "max"].contains(callee.baseName.text),
            Self.isMutable(node)
        else { return super.visit(node) }
        let name = callee.baseName.text
        let other = name == "min" ? "max" : "min"
        let id = record(node, .minMax, name, other)
        let rewritten = super.visit(node)
        guard let call = rewritten.as(FunctionCallExprSyntax.self) else { return rewritten }
        let mutated = call.with(\.calledExpression, ExprSyntax(callee.with(\.baseName, .identifier(other))))
        return choice(id, mutated: ExprSyntax(mutated), original: rewritten, trivia: node)
    }

    // MARK: Statements

    override func visit(_ node: GuardStmtSyntax) -> StmtSyntax {
        let expressions = node.conditions.compactMap { $0.condition.as(ExprSyntax.self) }
        guard Self.isMutable(node), expressions.count == node.conditions.count else { return super.visit(node) }
        let id = record(node.guardKeyword, .guardRemoval, "guard", "removed")
        let rewritten = super.visit(node)
        guard let guardStmt = rewritten.as(GuardStmtSyntax.self) else { return rewritten }
        let conditions = guardStmt.conditions.map { element -> ConditionElementSyntax in
            let condition = element.condition.as(ExprSyntax.self)!
            let text = "mutant(\(id)) || (\(condition.trimmedDescription))"
            return element.with(\.condition, .expression(Self.parseExpression(text).with(\.trailingTrivia, condition.trailingTrivia)))
        }
        return StmtSyntax(guardStmt.with(\.conditions, ConditionElementListSyntax(conditions)))
    }

    override func visit(_ node: ReturnStmtSyntax) -> StmtSyntax {
        guard Self.isMutable(node), Self.isRemovableEarlyReturn(node) else { return super.visit(node) }
        let id = record(node, .returnRemoval, "return", "removed")
        let rewritten = super.visit(node)
        return Self.parseStatement(
            "\(node.leadingTrivia)if !mutant(\(id)) { \(rewritten.trimmedDescription) }\(node.trailingTrivia)"
        )
    }

    // MARK: Helpers

    private func choice(_ id: Int, mutated: ExprSyntax, original: ExprSyntax, trivia node: some SyntaxProtocol) -> ExprSyntax {
        Self.parseExpression(
            "\(node.leadingTrivia)(mutant(\(id)) ? \(mutated.trimmedDescription) : \(original.trimmedDescription))\(node.trailingTrivia)"
        )
    }

    static func parseExpression(_ text: String) -> ExprSyntax {
        var parser = Parser(text)
        return ExprSyntax.parse(from: &parser)
    }

    static func parseStatement(_ text: String) -> StmtSyntax {
        var parser = Parser(text)
        return StmtSyntax.parse(from: &parser)
    }

    private static func radix(_ text: String) -> Int {
        text.hasPrefix("0x") ? 16 : text.hasPrefix("0b") ? 2 : text.hasPrefix("0o") ? 8 : 10
    }

    /// Code the mutants may change: expressions and statements, not types, patterns, attributes or enum cases.
    static func isMutable(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let parent = current {
            if parent.is(GenericArgumentClauseSyntax.self) || parent.is(AttributeSyntax.self) || parent.is(EnumCaseDeclSyntax.self)
                || parent.is(SwitchCaseLabelSyntax.self) || parent.is(IfConfigClauseSyntax.self) || parent.is(TypeAnnotationSyntax.self)
                || parent.is(MatchingPatternConditionSyntax.self)
            {
                return false
            }
            current = parent.parent
        }
        return true
    }

    /// Code in a body (of a function, an initializer, an accessor or a closure), not a stored
    /// property's initial value or a default argument: most initial values are overwritten before
    /// they are read, and their mutants would only add equivalents.
    static func isInBody(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let parent = current {
            if parent.is(CodeBlockSyntax.self) || parent.is(ClosureExprSyntax.self) || parent.is(AccessorBlockSyntax.self) { return true }
            if parent.is(MemberBlockItemSyntax.self) || parent.is(FunctionParameterSyntax.self) { return false }
            current = parent.parent
        }
        return false
    }

    /// A `return` directly in the body of an `if` statement (not in a closure), whose removal lets
    /// control fall through: in a function without a result, or an `if` followed by more statements.
    static func isRemovableEarlyReturn(_ node: ReturnStmtSyntax) -> Bool {
        guard let block = node.parent?.parent?.parent?.as(CodeBlockSyntax.self), var ifExpr = block.parent?.as(IfExprSyntax.self) else {
            return false
        }
        while let outer = ifExpr.parent?.as(IfExprSyntax.self) { ifExpr = outer }
        guard let statement = ifExpr.parent?.as(ExpressionStmtSyntax.self), let item = statement.parent?.as(CodeBlockItemSyntax.self),
            let items = item.parent?.as(CodeBlockItemListSyntax.self)
        else { return false }
        var current = items.parent
        while let parent = current {
            if parent.is(ClosureExprSyntax.self) { return false }
            if let function = parent.as(FunctionDeclSyntax.self) {
                return function.signature.returnClause == nil || (items.parent?.parent?.is(FunctionDeclSyntax.self) == true && items.last != item)
            }
            if parent.is(InitializerDeclSyntax.self) { return true }
            if parent.is(AccessorDeclSyntax.self) || parent.is(AccessorBlockSyntax.self) || parent.is(PatternBindingSyntax.self) { return false }
            current = parent.parent
        }
        return false
    }

    /// `Type.member(label:)` of the declaration around `node`.
    static func enclosingName(of node: Syntax) -> String {
        var names: [String] = []
        var current: Syntax? = node
        while let syntax = current {
            if let function = syntax.as(FunctionDeclSyntax.self) {
                let labels = function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()
                names.append("\(function.name.text)(\(labels))")
            } else if let initializer = syntax.as(InitializerDeclSyntax.self) {
                let labels = initializer.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()
                names.append("init(\(labels))")
            } else if let variable = syntax.as(VariableDeclSyntax.self), variable.parent?.is(MemberBlockItemSyntax.self) == true,
                let binding = variable.bindings.first
            {
                names.append(binding.pattern.trimmedDescription)
            } else if let subscriptDecl = syntax.as(SubscriptDeclSyntax.self) {
                names.append("subscript\(subscriptDecl.parameterClause.trimmedDescription.filter { !$0.isWhitespace })")
            } else if let type = syntax.asProtocol(NamedDeclSyntax.self), !syntax.is(FunctionDeclSyntax.self) {
                names.append(type.name.text)
            } else if let ext = syntax.as(ExtensionDeclSyntax.self) {
                names.append(ext.extendedType.trimmedDescription)
            }
            current = syntax.parent
        }
        return names.isEmpty ? "top-level" : names.reversed().joined(separator: ".")
    }
}
