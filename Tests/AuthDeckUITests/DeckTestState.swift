import Foundation
import AuthDeckCore
import AuthDeckConfig
import AuthDeckUI
import AuthDeckTestSupport

/// The fixture deck as the screen would show it, at a fixed instant.
enum DeckTestState {
    static let now = Instant(secondsSinceEpoch: 1_800_000_000)

    static func make(width: Int, height: Int, extra: [StoredAccount] = []) -> DeckState {
        let config = try! ConfigLoader.parse(DeckFixture.configTOML, path: "config.toml")
        let fixture = DeckFixture(now: now)
        let assessment = DeckAssessment(accounts: fixture.accounts + extra, providers: config.knownProviders, statePolicy: config.statePolicy,
                                        pruneSettings: config.pruneSettings, now: now)
        let (rows, providers) = DeckSnapshot.make(assessment, providers: config.providers, skew: config.statePolicy.clockSkew) { _ in [] }
        var state = DeckState(now: now, storePath: "~/.local/share/authdeck/authdeck.db", keySource: "key file", themeNames: ["default", "monochrome"])
        _ = DeckReducer.reduce(&state, .resize(width: width, height: height))
        _ = DeckReducer.reduce(&state, .loaded(rows: rows, providers: providers, now: now))
        return state
    }

    /// The store read again after a result (the rows as they were): what releases a held message.
    static func rowsArrive(_ state: inout DeckState) {
        _ = DeckReducer.reduce(&state, .loaded(rows: state.rows, providers: state.providers, now: state.now))
    }
}
