@testable import Datasets
@_spi(Tooling) import HealthCore
import Parquet
import Testing

/// The CSV fast path matches SPEC's meal types and step sources as little-endian words, for speed;
/// these tests hold the words to the vocabularies the domain cores own (`spelling`).
@Suite("The fast readers' vocabulary words spell the domain cores' vocabularies")
struct VocabularyWordsTests {
    /// `text` followed by a comma and padding, as a field inside a row, and what the matcher made of it.
    static func matched<T>(_ text: String, _ match: (inout UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> T) -> (T, consumed: Int) {
        let bytes = Array((text + ",0000000000").utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var p = buffer.baseAddress!
            let result = match(&p, buffer.baseAddress! + buffer.count)
            return (result, p - buffer.baseAddress!)
        }
    }

    @Test("each meal type's spelling, and its comma, is a meal type to the CSV fast path", arguments: MealType.allCases)
    func mealType(type: MealType) {
        // Given the spelling of a meal type in a row
        // When the fast path matches it
        let sut = Self.matched(type.name) { CanonicalFields.mealType(&$0, $1) }
        // Then it is taken, comma included
        #expect(sut.0)
        #expect(sut.consumed == type.name.utf8.count + 1)
    }

    @Test("a word one letter off a meal type is not one", arguments: ["lunch", "snack", "dinner", "breakfast"].flatMap { word in
        [String(word.dropLast()) + "x", "x" + word.dropFirst(), word.uppercased()]
    })
    func notMealType(word: String) {
        // Given a misspelled meal type
        // When the fast path matches it
        let sut = Self.matched(word) { CanonicalFields.mealType(&$0, $1) }
        // Then it is refused
        #expect(!sut.0)
    }

    @Test("each step source's spelling is that source to the CSV fast path", arguments: StepSource.allCases)
    func source(source: StepSource) {
        // Given the spelling of a step source in a row
        // When the fast path matches it
        let sut = Self.matched(source.name) { CanonicalFields.source(&$0, $1) }
        // Then it names the source
        #expect(sut.0 == source)
        #expect(sut.consumed == source.name.utf8.count + 1)
    }

    @Test("a word one letter off a step source is none", arguments: ["watcx", "xhone", "WATCH", "phon"])
    func notSource(word: String) {
        // Given a misspelled source
        // When the fast path matches it
        let sut = Self.matched(word) { CanonicalFields.source(&$0, $1) }
        // Then it names none
        #expect(sut.0 == nil)
    }
}
