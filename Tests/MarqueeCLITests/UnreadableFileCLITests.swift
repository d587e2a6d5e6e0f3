import Foundation
import Testing

/// A file the player may not read says `permission denied`, whatever its size. Run as root, mode 000
/// denies nothing, so `marquee` is then run as the unprivileged user `nobody` (setpriv).
@Suite struct UnreadableFileCLITests {
    @Test func anUnreadableFileIsPermissionDeniedEvenWhenItIsEmpty() throws {
        let folder = try CLIFixtures.workspace(prefix: "marquee-unreadable-cli-")
        chmod(folder.path, 0o755)  // nobody must reach the files
        try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "sine=duration=0.2", folder.appendingPathComponent("tone.wav").path])
        try Data().write(to: folder.appendingPathComponent("empty.wav"))
        for name in ["tone.wav", "empty.wav"] {
            #expect(chmod(folder.appendingPathComponent(name).path, 0) == 0)
        }

        for name in ["tone.wav", "empty.wav"] {
            let path = folder.appendingPathComponent(name).path
            let (launcher, arguments) = try Self.unprivileged(["probe", path])
            let outcome = try MarqueeProcess.run(arguments, in: folder, launcher: launcher)

            #expect(outcome.status == 1)
            #expect(outcome.standardError == "\(path): permission denied\n")
        }
    }

    /// `marquee arguments` as they are, or, as root, run by setpriv as `nobody`.
    static func unprivileged(_ arguments: [String]) throws -> (launcher: URL?, arguments: [String]) {
        guard geteuid() == 0 else { return (nil, arguments) }
        let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
        guard FileManager.default.isExecutableFile(atPath: setpriv.path) else {
            throw CLIFixtures.Failure(description: "running as root, and \(setpriv.path) is missing to drop to nobody")
        }
        let drop = ["--reuid=65534", "--regid=65534", "--clear-groups"]
        return (setpriv, drop + [try MarqueeProcess.executable().path] + arguments)
    }
}
