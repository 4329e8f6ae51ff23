import Testing
import Foundation
import AuthDeckOAuth

/// The JSON every provider answer, token and cache file is read with: strict by RFC 8259,
/// bounded as `JSONSerialization` was (512 levels), integers exact, and written back as
/// `JSONSerialization` wrote with sorted keys.
@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    func failure(_ text: String) -> JSONParser.Failure? {
        do { _ = try parse(text); return nil } catch { return error }
    }

    @Test func readsEveryKindOfValue() throws {
        let v = try parse(#" {"s":"a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","n":-12.5e-1,"t":true,"f":false,"z":null,"a":[1,[]],"o":{}} "#)
        let o = try #require(v.object)
        #expect(o["s"]?.string == "a\"\\/\u{8}\u{c}\n\r\té😀")
        #expect(o["n"]?.number?.text == "-12.5e-1")
        #expect(o["t"] == .bool(true) && o["f"] == .bool(false) && o["z"] == .null)
        #expect(o["a"]?.array?.count == 2 && o["o"]?.object?.isEmpty == true)
    }

    @Test func integersAreExactAndBooleansAreNotNumbers() throws {
        let json = try #require(JSONObject(bytes: Array(#"{"id":8999999999999999,"big":9000000000000001,"exp":1.7e9,"whole":3600.0,"half":0.5,"yes":true,"one":1}"#.utf8)))
        #expect(json.integer("id") == 8_999_999_999_999_999, "exact, though a Double would round it")
        #expect(json.integer("big") == nil, "past 9e15 a time or count is refused, as before")
        #expect(json.integer("exp") == 1_700_000_000 && json.integer("whole") == 3600)
        #expect(json.integer("half") == nil && json.integer("yes") == nil)
        #expect(json.bool("yes") == true && json.bool("one") == nil, "1 is a number, not a boolean")
        #expect(json.fields["id"]?.number?.text == "8999999999999999")
        #expect(json.scalarStrings["exp"] == "1700000000.0" && json.scalarStrings["id"] == "8999999999999999" && json.scalarStrings["yes"] == "true")
    }

    @Test func nestsTo512LevelsAndNoDeeper() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try parse(deepest).array != nil)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(failure(tooDeep)?.description == "arrays and objects nested more than 512 deep at byte 512")
        // An attacker's million brackets end in that error, not a stack overflow.
        #expect(failure(String(repeating: #"{"a":["#, count: 500_000))?.problem == "arrays and objects nested more than 512 deep")
    }

    @Test func refusesADocumentOverTheSizeLimitUnread() {
        let huge = [UInt8](repeating: 0x20, count: JSONParser.maxBytes + 1)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(huge) }
        #expect((try? JSONParser.parse([UInt8](repeating: 0x20, count: 1000) + Array("1".utf8))) != nil)
    }

    @Test func refusesWhatRFC8259Refuses() {
        let bad: [(String, String, Int)] = [
            (#"{"a":1,}"#, "expected a member name in quotes", 7),
            ("[1,]", "invalid value", 3),
            (#"{"a":01}"#, "a number with a leading zero", 6),
            (#"{"a":1.}"#, "a number with no digits after its decimal point", 7),
            (#"{"a":1e}"#, "a number with no digits in its exponent", 7),
            (#"{"a":.5}"#, "invalid value", 5),
            (#"{"a":NaN}"#, "invalid value", 5),
            (#"{"a":1e400}"#, "a number too large to represent", 5),
            (#"{"a":"\x"}"#, "an invalid escape in a string", 6),
            (#"{"a":"\ud800"}"#, "a high surrogate escape without its low surrogate", 12),
            (#"{"a":"\udc00"}"#, "a low surrogate escape without a high one", 12),
            (#"{"a":"\u12g4"}"#, "a \\u escape with a character that is not hexadecimal", 10),
            ("{\"a\":\"\u{1}\"}", "a control character not escaped in a string", 6),
            (#"{"a":1} x"#, "unexpected text after the JSON value", 8),
            (#"{'a':1}"#, "expected a member name in quotes", 1),
            (#"{"a" 1}"#, "expected ':' after a member name", 5),
            (#"{"a":"#, "unexpected end of the document", 5),
            (#"{"a":"x"#, "a string that never ends", 5),
            ("", "unexpected end of the document", 0),
            ("tru", "invalid value", 0),
        ]
        for (text, problem, offset) in bad {
            #expect(failure(text)?.description == "\(problem) at byte \(offset)", "\(text)")
        }
        let invalidUTF8: [[UInt8]] = [[0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]]
        for bytes in invalidUTF8 {
            #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(bytes) }
            #expect((try? JSONParser.parse(bytes)) == nil)
            do { _ = try JSONParser.parse(bytes) } catch { #expect(error.description == "a string that is not valid UTF-8 at byte 0") }
        }
        #expect(JSONObject(bytes: Array(#"{"a":1,}"#.utf8)) == nil, "a trailing comma is not JSON")
    }

    @Test func theLastOfRepeatedKeysWinsAndAByteOrderMarkIsSkipped() throws {
        #expect(try parse(#"{"a":1,"a":"two"}"#).object?["a"] == .string("two"))
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .array([]))
    }

    /// The writer's bytes are `JSONSerialization`'s with `.sortedKeys`, for documents whose
    /// numbers are written the way it writes them.
    @Test func writesAsJSONSerializationWritesSortedKeys() throws {
        let text = #"{"b":1,"B":2,"a10":3,"a2":4,"a":{"z":[true,false,null,-7,0.25,"x"],"é":"\/\u0001\u001f\u000b\"\\\n\r\t\b\f \u2028😀"},"":0,"Ab":"","aB":"q"}"#
        let ours = try parse(text).sortedText
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let theirs = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
        #expect(try JSONParser.parse(ours) == parse(text), "what is written reads back the same")
    }

    @Test func numbersAreWrittenAsTheyWereRead() throws {
        let text = #"{"a":1.50,"b":1E+3,"c":-0,"d":12345678901234567890123}"#
        #expect(String(decoding: try parse(text).sortedText, as: UTF8.self) == text)
    }
}
