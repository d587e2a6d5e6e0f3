import MarqueeCore
import Testing

@Suite struct AudioClockFollowerTests {
    private static func ms(_ value: Int64) -> MediaTime { MediaTime(value, per: 1000) }

    @Test(arguments: [
        // error (ms), correction (µs): jitter is left alone, drift is smoothed by 1/8, big jumps are taken at once.
        (0, 0), (0.5, 0), (-0.9, 0),
        (1, 125), (-1, -125), (8, 1000), (-40, -5000), (59, 7375),
        (60, 60_000), (-60, -60_000), (250, 250_000), (-1000, -1_000_000),
    ] as [(Double, Int64)])
    func correction(errorMilliseconds: Double, expectedMicroseconds: Int64) {
        let follower = AudioClockFollower()
        let error = MediaTime(Int64(errorMilliseconds * 1000), per: 1_000_000)
        #expect(follower.correction(forError: error) == MediaTime(expectedMicroseconds, per: 1_000_000))
    }

    @Test func aSteadyDriftIsFollowedWithoutOvershoot() {
        // The device runs 1 % fast: each 40 ms frame, video falls 0.4 ms further behind.
        let follower = AudioClockFollower()
        var offset = MediaTime.zero
        var worst = MediaTime.zero
        for frame in 1...2500 {
            let deviceAhead = MediaTime(Int64(frame) * 4, per: 10_000)
            let error = deviceAhead - offset
            offset += follower.correction(forError: error)
            if frame > 50 { worst = max(worst, error < .zero ? .zero - error : error) }
        }
        #expect(worst < Self.ms(5), "a 100 s run at 1 % drift stays within 5 ms: \(worst.seconds)")
    }
}

@Suite struct VolumeControlTests {
    @Test(arguments: [
        (1.0, Command.volumeUp, 1.0, false), (1.0, .volumeDown, 0.9, true), (0.3, .volumeUp, 0.4, true),
        (0.3, .volumeDown, 0.2, true), (0.0, .volumeDown, 0.0, false), (0.35, .volumeUp, 0.4, true),
        (0.35, .volumeDown, 0.3, true), (0.1, .volumeDown, 0.0, true), (0.5, .play, 0.5, false),
    ] as [(Double, Command, Double, Bool)])
    func steps(from start: Double, command: Command, to end: Double, changes: Bool) {
        var volume = VolumeControl(volume: start)
        #expect(volume.apply(command) == changes)
        #expect(volume.volume == end)
    }

    @Test func tenStepsGoExactlyFromSilenceToFull() {
        var volume = VolumeControl(volume: 0)
        for _ in 0..<10 { _ = volume.apply(.volumeUp) }
        #expect(volume.volume == 1 && volume.gain == 1)
    }

    @Test func muteKeepsTheLevelAndVolumeUpUnmutes() {
        var volume = VolumeControl(volume: 0.6)
        #expect(volume.apply(.toggleMute) && volume.gain == 0 && volume.volume == 0.6)
        #expect(volume.apply(.volumeDown) && volume.isMuted && volume.volume == 0.5)
        #expect(volume.apply(.volumeUp) && !volume.isMuted && volume.gain == Float(0.6))
        #expect(VolumeControl(volume: .nan).volume == 1 && VolumeControl(volume: 7).volume == 1 && VolumeControl(volume: -1).volume == 0)
    }
}
