import Foundation

/// A file the config names for a user name and password (`mqtt.credentials`,
/// `source.credentials`): read once at start, never logged.
package enum CredentialsFile {
    /// Why the file could not be used, for a one-line error that names the file.
    package struct Problem: Error { let message: String }

    /// `username:password` on the file's first line (the password may hold ':'); never logged.
    package static func read(_ path: String) -> Result<(String, String), Problem> {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            return .failure(Problem(message: reason))
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first
            .map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\r")) } ?? ""
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
            return .failure(Problem(message: "expected one line username:password"))
        }
        return .success((String(line[..<colon]), String(line[line.index(after: colon)...])))
    }

    /// A warning when others than the player's user and group may read the file (a password in
    /// a file anyone on the device can read is no secret); nil when it is kept close.
    package static func exposure(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o004 != 0 else { return nil }
        return "\(path) may be read by anyone (mode \(String(status.st_mode & 0o777, radix: 8))); chmod o-r \(path)"
    }
}
