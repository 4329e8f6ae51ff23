import Testing
@testable import AuthDeckCore

/// The agent's frames: what one side writes the other reads back exactly, and what a hostile
/// peer sends is refused with the reason named.
struct AgentMessageTests {
    @Test func aMessageRoundTripsWithEscapesAndRepeatedKeys() throws {
        var message = AgentMessage([("op", "token"), ("account", "work\\dev\nx=y\r\0")])
        message.append("scope", "a")
        message.append("scope", "b c")
        let frame = try message.frame()
        let length = try AgentMessage.bodyLength(header: Array(frame.prefix(4)))
        #expect(length == frame.count - 4)
        let back = try AgentMessage.parse(body: Array(frame.dropFirst(4)))
        #expect(back == message)
        #expect(back["v"] == "1")
        #expect(back["account"] == "work\\dev\nx=y\r\0")
        #expect(back.values("scope") == ["a", "b c"])
        #expect(back["missing"] == nil)
    }

    @Test func hostileBodiesAreRefusedByName() {
        func refusal(_ text: String) -> AgentMessage.Malformed? {
            do { _ = try AgentMessage.parse(body: Array(text.utf8)); return nil } catch { return error }
        }
        #expect(refusal("op=token\nnoequals\n") == .badLine(2))
        #expect(refusal("Op=token\n") == .badKey(1))
        #expect(refusal("=x\n") == .badKey(1))
        #expect(refusal("a=\\q\n") == .badEscape(1))
        #expect(refusal("a=trailing\\\n") == .badEscape(1))
        #expect(refusal("a=b\r\nc=d\n") == .badEscape(1), "a raw CR is refused, not taken into a value")
        #expect(throws: AgentMessage.Malformed.notUTF8) { try AgentMessage.parse(body: [97, 61, 0xff, 10]) }
        #expect(throws: AgentMessage.Malformed.tooManyFields) {
            try AgentMessage.parse(body: Array(String(repeating: "a=b\n", count: AgentMessage.maxFields + 1).utf8))
        }
        #expect(throws: AgentMessage.Malformed.tooLarge(AgentMessage.maxBody + 1)) { try AgentMessage.bodyLength(header: [0, 1, 0, 1]) }
        #expect(throws: AgentMessage.Malformed.tooLarge(Int(UInt32.max))) { try AgentMessage.bodyLength(header: [255, 255, 255, 255]) }
    }
}
