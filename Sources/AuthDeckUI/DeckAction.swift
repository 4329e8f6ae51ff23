import AuthDeckCore
import AuthDeckLook

/// Everything that can happen to the deck: keys, the clock, and results of effects.
public enum DeckAction: Equatable, Sendable {
    case key(Key)
    case tick(Instant)
    /// The whole store read; `changesAt`: when time alone may change a state.
    case loaded(rows: [DeckRow], providers: [DeckProvider], now: Instant, changesAt: Instant? = nil)
    /// The accounts `ids` read again (a renewal's result): their rows, without those gone.
    case rowsUpdated(ids: [String], rows: [DeckRow], changesAt: Instant?)
    /// A renewal of `id` ended; `retryAt`: when the renewal pacing lets it be renewed ahead again.
    case renewFinished(id: String, failure: String?, retryAt: Instant? = nil)
    case signInPrompt(id: String, SignInPrompt)
    /// The sign-in of `id` needs `account`'s password, typed into a window of the deck; `note`
    /// says why it is asked again.
    case passwordPrompt(id: String, account: String, note: String? = nil)
    /// `account` names a new account added (`provider/username`).
    case signInFinished(id: String, failure: String?, account: String? = nil, existing: Bool = false)
    case pruned(count: Int)
    case restored(count: Int)
    case loggedOut(id: String, failure: String?)
    /// The deck's `*` on `id` answered: `said` follows the account's name (after a colon when
    /// `refused`), in the words `authdeck use` prints.
    case defaultSet(id: String, said: String, refused: Bool)
    case failed(String)
    case click(x: Int, y: Int)
    case resize(width: Int, height: Int)
    /// The QR code of a verification URL, encoded by the runtime.
    case qrCode(uri: String, QRMatrix)
    /// Account `id`'s recent events, read because it was selected (`DeckEffect.readEvents`).
    case eventsRead(id: String, events: [DeckEvent])
    /// A host asks for an account's credential: the agent window asks the person.
    case agentAsked(DeckAgentAsk)
    /// The request of `ticket` stopped waiting before an answer (its client hung up): its
    /// window or place in the queue goes.
    case agentAskEnded(ticket: Int)
    /// What the agent handed to which host, by account id, read again (`DeckEffect.readHandOuts`).
    case handOutsRead([String: [DeckHandOut]])
    /// A host's request needs account `id` signed in: the deck signs it in as Enter does.
    case agentSignIn(id: String)
    /// The host waiting for `id`'s sign-in stopped waiting: a sign-in started for it stops.
    case agentSignInTimedOut(id: String)
    /// The deck serves no hosts (another agent answers at the socket, or it cannot listen): why.
    case agentNotServing(String)
    /// The agent the deck stepped aside for has gone, and the deck serves the socket (its path).
    case agentServing(String)
}

/// Work `reduce` asks the runtime to do; results come back as actions.
public enum DeckEffect: Equatable, Sendable {
    /// Read the whole store again.
    case reload
    /// Read these accounts again (and those sharing their provider and subject, whose stale
    /// verdicts depend on each other), answered by `.rowsUpdated`.
    case refreshRows(ids: [String])
    /// Read account `id`'s recent events (it is the selected one), answered by `.eventsRead`.
    case readEvents(id: String)
    case renew(ids: [String], interactiveIfNeeded: Bool)
    /// Renew ahead of expiry, by the deck itself: only what still needs it (another process
    /// such as `authdeck watch` may have renewed it already), never with a person.
    case renewAhead(ids: [String])
    case prune(ids: [String])
    case undoPrune
    case logout(id: String, clearRegistration: Bool)
    /// Make `id` its provider's default account (`authdeck use`).
    case makeDefault(id: String)
    case signIn(provider: String)
    case cancelSignIn(id: String)
    /// The password typed for the sign-in of `id`, handed to the sign-in that asked for it.
    case answerPassword(id: String, Secret)
    case openURL(String)
    /// Encode a verification URL as a QR code (answered by `.qrCode`, or not at all when
    /// libqrencode is missing).
    case encodeQR(String)
    /// The person's answer to the host's request waiting under `ticket`.
    case answerAgent(ticket: Int, DeckAgentAsk.Answer)
    /// Read again what the agent handed to which host (answered by `.handOutsRead`).
    case readHandOuts
    case quit
}
