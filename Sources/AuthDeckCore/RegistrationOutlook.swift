/// What a provider without a `client_id` will meet at its first sign-in, as `providers` says
/// it before that sign-in. Why one value: `providers` and `login` must agree, so `providers`
/// never promises a registration an issuer without a `registration_endpoint` cannot make.
public enum RegistrationOutlook: Sendable, Equatable {
    /// A configured client or a stored registration: nothing to register.
    case held
    /// Discovery names a registration endpoint: the first sign-in registers there.
    case registers
    /// Discovery names none: the remedy says what to set.
    case needsClientId(String)
    /// Discovery could not be read now (why); the first sign-in will find out.
    case unchecked(String)
}
