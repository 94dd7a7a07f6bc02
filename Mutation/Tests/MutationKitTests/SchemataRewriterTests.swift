import Testing

@testable import MutationKit

/// Each mutation kind makes the expected mutants of a small source, with stable keys.
@Suite struct SchemataRewriterTests {
    private func mutants(of source: String, copying names: [String] = ["f"]) throws -> [Mutant] {
        try Schemata.rewrite(source, plan: CopyPlan(file: "Snippet/Snippet.swift", types: names), firstID: 1).mutants
    }

    private func changes(_ mutants: [Mutant]) -> [String] { mutants.map { "\($0.kind.rawValue) \($0.original) -> \($0.replacement)" } }

    @Test(arguments: [
        ("a < b", "relational < -> <="), ("a <= b", "relational <= -> <"), ("a > b", "relational > -> >="),
        ("a >= b", "relational >= -> >"), ("a == b", "relational == -> !="), ("a != b", "relational != -> =="),
    ])
    func relationalOperatorsFlip(expression: String, expected: String) throws {
        // Given a function comparing two values
        let source = "func f(a: Int, b: Int) -> Bool { \(expression) }"

        // When its schemata are made
        let sut = try mutants(of: source)

        // Then the comparison is the one mutant
        #expect(changes(sut) == [expected])
    }

    @Test func logicalOperatorsFlipAndTheirOperandsToo() throws {
        // Given a conjunction and a disjunction of flags
        let source = "func f(a: Bool, b: Bool, c: Bool) -> Bool { (a && b) || c }"

        // When its schemata are made
        let sut = try mutants(of: source)

        // Then both operators flip, outer first
        #expect(changes(sut) == ["logical || -> &&", "logical && -> ||"])
    }

    @Test func integerLiteralsGoOneUpAndOneDown() throws {
        // Given a limit written as a literal
        let source = "func f(x: Int64) -> Bool { x > 14_400 }"

        // When its schemata are made
        let sut = try mutants(of: source)

        // Then the literal gives one mutant above and one below, beside the comparison's
        #expect(changes(sut) == ["relational > -> >=", "literal 14_400 -> 14401", "literal 14_400 -> 14399"])
    }

    @Test func aGuardIsRemovedButNotOneThatBinds() throws {
        // Given a guard on a condition and a guard that binds a value
        let source = """
            func f(x: Int?, y: Bool) -> Int {
                guard y else { return -1 }
                guard let x else { return -2 }
                return x
            }
            """

        // When its schemata are made
        let sut = try mutants(of: source).filter { $0.kind == .guardRemoval }

        // Then only the first guard is removed
        #expect(sut.map(\.line) == [2])
    }

    @Test func anEarlyReturnIsRemovedWhereControlCanFallThrough() throws {
        // Given returns in ifs: of a function without a result, before more statements, and as the last statement
        let source = """
            func f(x: Bool) { if x { return }; print(x) }
            func g(x: Bool) -> Int { if x { return 1 }; return 2 }
            func h(x: Bool) -> Int { if x { return 1 } else { return 2 } }
            """

        // When its schemata are made
        let sut = try mutants(of: source, copying: ["f", "g", "h"]).filter { $0.kind == .returnRemoval }

        // Then the first two lose their early return, the last keeps both
        #expect(sut.map(\.function) == ["f(x:)", "g(x:)"])
    }

    @Test func minAndMaxSwap() throws {
        // Given a clamp
        let source = "func f(x: Int) -> Int { min(max(x, 0), 9) }"

        // When its schemata are made
        let sut = try mutants(of: source).filter { $0.kind == .minMax }

        // Then both calls swap
        #expect(changes(sut) == ["minmax min -> max", "minmax max -> min"])
    }

    @Test func keysNameTheFileTheFunctionTheChangeAndTheOccurrence() throws {
        // Given two equal comparisons in one method
        let source = """
            struct S {
                func f(a: Int, b: Int) -> Bool { a < b || b < a }
            }
            """

        // When its schemata are made
        let sut = try mutants(of: source, copying: ["S"]).filter { $0.kind == .relational }

        // Then their keys differ by the occurrence only
        #expect(sut.map(\.key) == ["Snippet/Snippet.swift S.f(a:b:) < -> <= #0", "Snippet/Snippet.swift S.f(a:b:) < -> <= #1"])
    }

    @Test func typesAttributesAndCasePatternsAreNotMutated() throws {
        // Given literals in a generic argument, an enum's raw value and a case pattern
        let source = """
            enum E: Int { case one = 1 }
            func f(x: Int) -> Int {
                let a = InlineArray<7, Int>(repeating: 0)
                switch x { case 3: return a[0]; default: return 0 }
            }
            """

        // When its schemata are made
        let sut = try mutants(of: source, copying: ["E", "f"])

        // Then only the literals in expressions mutate
        #expect(sut.map(\.original) == ["0", "0", "0", "0", "0", "0"])
    }

    @Test func aSynthesizedEqualityLosesEachStoredFieldInTurn() throws {
        // Given a struct with synthesized Equatable: three stored fields, a computed one and a static one
        let source = """
            struct Fingerprint: Hashable {
                var kind: Int
                var amount: Int64
                static let empty = 0
                var refundOf: UInt32? { didSet {} }
                var twice: Int64 { amount * 2 }
            }
            """

        // When its equality's schemata are made
        let (text, sut) = try Schemata.rewrite(source, plan: CopyPlan(file: "Snippet/Snippet.swift", equalities: ["Fingerprint"]), firstID: 1)

        // Then each stored field is one mutant, keyed by the field, and the original compares them all
        #expect(changes(sut) == ["equality kind -> dropped", "equality amount -> dropped", "equality refundOf -> dropped"])
        #expect(sut.map(\.key) == [
            "Snippet/Snippet.swift Fingerprint.== kind -> dropped #0", "Snippet/Snippet.swift Fingerprint.== amount -> dropped #0",
            "Snippet/Snippet.swift Fingerprint.== refundOf -> dropped #0",
        ])
        #expect(sut.map(\.line) == [2, 3, 5])
        #expect(text.contains("if mutant(1) { return lhs.amount == rhs.amount && lhs.refundOf == rhs.refundOf }"))
        #expect(text.contains("return lhs.kind == rhs.kind && lhs.amount == rhs.amount && lhs.refundOf == rhs.refundOf"))
        #expect(text.contains("@usableFromInline static func == (lhs: Fingerprint, rhs: Fingerprint) -> Bool {"))  // called from @inlinable copies
    }

    @Test func aHandWrittenEqualityKeepsItsBodyAndItsOwnMutants() throws {
        // Given a struct whose `==` is written by hand (in an extension) and ignores a field
        let source = """
            struct Pair: Equatable {
                var a: Int
                var b: Int
                var note: String
            }
            extension Pair {
                static func == (x: Pair, y: Pair) -> Bool { x.a == y.a && x.b == y.b }
            }
            """

        // When its equality's schemata are made
        let (text, sut) = try Schemata.rewrite(source, plan: CopyPlan(file: "Snippet/Snippet.swift", equalities: ["Pair"]), firstID: 1)

        // Then its operators are mutated as in any copied code, each field is dropped in turn with its parameter names,
        // and the body stays the original
        #expect(changes(sut) == [
            "logical && -> ||", "relational == -> !=", "relational == -> !=",
            "equality a -> dropped", "equality b -> dropped", "equality note -> dropped",
        ])
        #expect(text.contains("static func == (x: Pair, y: Pair) -> Bool {"))
        #expect(text.contains("if mutant(4) { return x.b == y.b && x.note == y.note }"))
        #expect(text.contains("(mutant(1) ?"))
    }

    @Test func anEqualityOfAStructTheFileLacksOrOfACopiedTypeIsAnError() throws {
        // Given a plan naming a struct the file does not declare, and one naming a type it also copies
        // When their schemata are made, then each is an error
        #expect(throws: MutationError.self) {
            try Schemata.rewrite("struct S { var a: Int }", plan: CopyPlan(file: "S.swift", equalities: ["T"]), firstID: 1)
        }
        #expect(throws: MutationError.self) {
            try Schemata.rewrite("struct S { var a: Int }", plan: CopyPlan(file: "S.swift", types: ["S"], equalities: ["S"]), firstID: 1)
        }
    }

    @Test func aMissingDeclarationIsAnError() throws {
        // Given a plan naming a type the file does not declare
        // When its schemata are made, then the error names the file and the type
        #expect(throws: MutationError.self) { try mutants(of: "func f() {}", copying: ["Absent"]) }
    }
}
