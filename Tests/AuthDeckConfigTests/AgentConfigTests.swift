import Testing
import AuthDeckCore
import AuthDeckConfig

/// `[[agent]]` and `[agent_confirm]`: read as written, and every mistake worded with the file,
/// the entry and the field.
@Suite struct AgentConfigTests {
    func message(_ toml: String) -> String {
        do { _ = try ConfigLoader.parse(toml, path: "c.toml"); return "(no error)" } catch { return "\(error)" }
    }

    @Test func entriesAndTheConfirmCommandAreRead() throws {
        let config = try ConfigLoader.parse("""
            [[agent]]
            host = "build-*"
            accounts = ["work", "gl/ci@example.com"]
            scopes = ["api://x/.default"]
            expires = 2026-12-31T18:00:00+01:00

            [[agent]]
            host = "jump"
            accounts = ["work/a0"]
            expires = "2027-01-01T00:00:00Z"

            [agent_confirm]
            command = "zenity --question"
            """, path: "c.toml")
        #expect(config.agentAllows.count == 2 && config.agentConfirmCommand == "zenity --question")
        let first = config.agentAllows[0]
        #expect(first.host == "build-*" && first.accounts == ["work", "gl/ci@example.com"] && first.scopes == ["api://x/.default"] && first.index == 1)
        #expect(first.expires?.iso8601 == "2026-12-31T17:00:00Z", "the offset is applied")
        #expect(config.agentAllows[1].expires?.iso8601 == "2027-01-01T00:00:00Z" && config.agentAllows[1].scopes == nil)
    }

    @Test(arguments: [
        ("[[agent]]\naccounts = [\"work\"]\n", "c.toml: agent #1: \"host\" is required"),
        ("[[agent]]\nhost = \"h\"\n", "c.toml: agent #1: \"accounts\" is required"),
        ("[[agent]]\nhost = \"h\"\naccounts = []\n", "c.toml: agent #1: \"accounts\" must name at least one"),
        ("[[agent]]\nhost = \"a b\"\naccounts = [\"w\"]\n", "c.toml: agent #1: \"host\" must be one host name or glob pattern"),
        ("[[agent]]\nhost = \"h\"\naccounts = [\"w\"]\n[[agent]]\nhost = \"h\"\naccounts = [\"w\"]\nexpires = \"tomorrow\"\n",
         "c.toml: agent #2: \"expires\" must be an RFC 3339 date-time"),
        ("[[agent]]\nhost = \"h\"\naccounts = [\"w\"]\nexpires = 2026-12-31T18:00:00\n", "c.toml: agent #1: \"expires\" must carry a time zone"),
        ("[[agent]]\nhost = \"h\"\naccount = [\"w\"]\n", "c.toml: agent #1: \"account\": write \"accounts\""),
        ("[agent]\nconfirm_command = \"x\"\n", "c.toml: \"agent\" must be an array of tables"),
        ("[agent_confirm]\ncommand = \"a 'b\"\n", "c.toml: [agent_confirm]: \"command\" has an unclosed quote"),
        ("[agent_confirm]\ncmd = \"a\"\n", "c.toml: [agent_confirm]: unknown key \"cmd\""),
    ])
    func mistakesNameTheFileTheEntryAndTheField(toml: String, expected: String) {
        #expect(message(toml).hasPrefix(expected), "\(message(toml))")
    }
}
