import Foundation
import MarqueeConfig
import Testing

/// `sync:` refusals are said at the key that must change (the playlist's `repeat:`, not `sync:`),
/// so `FILE:LINE:COLUMN` takes the operator's editor there; at `sync:` only when that key is not
/// written in the file.
@Suite struct SyncDiagnosticTests {
    /// The case's errors as `LINE:COLUMN: message` (warnings left out).
    static func errors(_ yaml: String) throws -> [String] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("wall.yaml", yaml)
        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        #expect(result.configuration == nil)
        return result.diagnostics.filter { $0.severity == .error }.map { "\($0.line):\($0.column): \($0.message)" }
    }

    static let epoch = "sync:\n  epoch: \"2026-01-01T00:00:00Z\"\n"

    @Test func aRepeatModeIsRefusedAtTheRepeatKey() throws {
        let errors = try Self.errors(Self.epoch + """
            playlist:
              items: [a.mp4]
              repeat: one
            """)
        #expect(errors == ["5:3: sync needs repeat all (found repeat one): the wall's timeline is the whole playlist, looped"])
    }

    @Test func shuffleIsRefusedAtTheRepeatKey() throws {
        let errors = try Self.errors(Self.epoch + "playlist:\n  repeat: shuffle\n  items: [a.mp4]\n")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("4:3: sync plays the playlist in order (repeat all)") == true, "\(errors)")
    }

    @Test func anEndActionIsRefusedAtItsKey() throws {
        let errors = try Self.errors(Self.epoch + "playlist:\n  items: [a.mp4]\n  actionAtItemEnd: pause\n")
        #expect(errors == ["5:3: sync needs actionAtItemEnd advance (found pause): a pause at an item's end would leave the wall"])
    }

    @Test func anItemsScheduleIsRefusedAtThatItemsScheduleKey() throws {
        let errors = try Self.errors(Self.epoch + """
            playlist:
              items:
                - a.mp4
                - url: b.mp4
                  schedule: {from: "12:00", to: "13:00"}
            """)
        #expect(errors == ["7:7: sync cannot be combined with a schedule on the playlist or its items: every item plays every cycle"])
    }

    @Test func aPlaylistsScheduleIsRefusedAtItsOwnScheduleKey() throws {
        let errors = try Self.errors(Self.epoch + """
            playlist:
              items: [a.mp4]
              schedule: {from: "12:00", to: "13:00"}
            """)
        #expect(errors.map { $0.prefix(4) } == ["5:3:"], "\(errors)")
    }

    @Test func aSourceIsRefusedAtTheSourceKey() throws {
        let errors = try Self.errors("source: https://cms.example/lobby.yaml\n" + Self.epoch)
        #expect(errors == ["1:1: sync cannot be combined with 'source' yet: give the playlist in this file"])
    }

    @Test func daypartsAreRefusedAtThePlaylistsKey() throws {
        let errors = try Self.errors("""
            playlists:
              lunch: {items: [a.mp4]}
              default: {items: [b.mp4]}

            """ + Self.epoch)
        #expect(errors == ["1:1: sync needs one 'playlist' (dayparts would change the cycle the players count)"])
    }

    /// No key to point at (the screens have the playlists): the `sync:` key, and `displays:` for
    /// the combination.
    @Test func withNoPlaylistKeyTheSyncKeyIsTheFallback() throws {
        let errors = try Self.errors(Self.epoch + """
            displays:
              - name: menu
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
            """)
        #expect(errors == [
            "1:1: sync needs one 'playlist' (dayparts would change the cycle the players count)",
            "3:1: sync (line 1) cannot be combined with 'displays' yet: a wall is one screen per player",
        ])
    }
}
