import AuthDeckCore

/// Mobile client registration on the Mobile and Social REST server type
/// (`options.client_registration = true`; PROVIDERS.md §5, "Client registration").
///
/// The server knows the application per user and device by a registration handle
/// (`CLIENTREGHANDLE`) and wants it on every later call of that user. The handle is kept as the
/// OAuth server type keeps its client assertion (`OAMRegistration`, in the account's sealed
/// extras): one per user on this store, found again by username, kept by a plain logout and
/// deleted by `logout --clear-registration`, at the server first. A 401 does not say whether the
/// handle or the password was refused, so a refused call is followed by one new registration
/// with the password at hand: a wrong password fails there, a revoked handle is replaced.
extension OAMAdapter {
    /// A user token for `username`, as a registered client when configured: with the handle
    /// `held` for the user, else (or when the server refuses it, once) a new registration's.
    /// Returns the handle used, for the caller to seal with the account.
    func restAuthenticate(_ service: OAMRestService, username: String, password: Secret, held: OAMRegistration?,
                          presenter: (any SignInPresenter)? = nil) async throws -> (OAMRestService.Issued, OAMRegistration?) {
        guard service.settings.registers else { return (try await service.authenticate(username: username, password: password), nil) }
        if let held {
            do {
                return (try await service.holding(held).authenticate(username: username, password: password), held)
            } catch let f as AuthFailure where f.errorClass == .needsInteraction {}
        }
        let issued = try await service.register(username: username, password: password)
        // The device id names this device's registration locally (the REST profile sends no hardware ids).
        let registration = OAMRegistration(assertion: issued.token, expiresAt: nil, deviceId: held?.deviceId ?? OAMRegistrar.newDeviceId(), details: [:])
        await presenter?.present(.notice(held == nil ? "Registered this device with the Mobile and Social server."
                                                     : "The Mobile and Social server no longer accepted this device's registration; registered again."))
        return (try await service.holding(registration).authenticate(username: username, password: password), registration)
    }

    /// The REST service as `stored`'s calls go: with its registration handle when this client registers.
    func restService(for stored: StoredAccount) -> OAMRestService? {
        guard let service = restService else { return nil }
        return service.settings.registers ? service.holding(OAMRegistration(extras: stored.credentials.extras)) : service
    }

    /// Logout at the server: the session of the held user token, and with `clearingRegistration`
    /// the handle too (which needs no session: a signed-out account still holds its handle).
    /// A session or handle the server no longer knows (401/403) is already gone: the local
    /// sign-out goes on. A network error or 5xx stops it with nothing deleted.
    func restLogout(_ service: OAMRestService, _ stored: StoredAccount, clearingRegistration: Bool) async throws {
        let token = Self.heldUserToken(stored)?.value
        do {
            if clearingRegistration, service.handle != nil {
                try await service.clearRegistration(userToken: token)
            } else if let token {
                try await service.logout(userToken: token)
            }
        } catch let f as AuthFailure where f.errorClass == .needsInteraction {}
    }

    public func revoke(_ stored: StoredAccount, clearingRegistration: Bool) async throws {
        guard clearingRegistration, let service = restService(for: stored) else { return try await revoke(stored) }
        try await restLogout(service, stored, clearingRegistration: true)
    }
}
