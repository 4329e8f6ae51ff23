import Testing
import AuthDeckCore

/// "Did you mean" for commands, config keys and ACCOUNT alike.
struct SpellingTests {
    @Test func distancesCountASwapOfNeighboursAsOneEdit() {
        #expect(Spelling.distance("accounts", "accounts") == 0)
        #expect(Spelling.distance("acocunts", "accounts") == 1)
        #expect(Spelling.distance("acounts", "accounts") == 1)
        #expect(Spelling.distance("", "abc") == 3)
        #expect(Spelling.distance("kitten", "sitting") == 3)
    }

    @Test func theNearestNameIsOfferedOnlyWhenItIsATypoAway() {
        #expect(Spelling.nearest("wrok", in: ["fb", "work", "sp"]) == "work")
        // Too far for a four-letter word (one edit allowed).
        #expect(Spelling.nearest("wxyk", in: ["work"]) == nil)
        // The word itself is no suggestion.
        #expect(Spelling.nearest("work", in: ["wark", "work"]) == nil)
        // The first of equals, and an explicit limit.
        #expect(Spelling.nearest("cat", in: ["bat", "cap"]) == "bat")
        #expect(Spelling.nearest("client_idd", in: ["client_id", "scopes"], within: 2) == "client_id")
        #expect(Spelling.nearest("anything", in: []) == nil)
    }
}
