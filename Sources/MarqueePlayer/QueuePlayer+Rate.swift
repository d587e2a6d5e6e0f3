import MarqueeCore

/// The playback rate (AVPlayer.rate, 0.25 to 4). Playback time is the clock at that rate
/// (`RateClock`): the timeline and the frame scheduler go on as they are, so at 2 the scheduler
/// drops the frames decoding cannot keep up with and at 0.5 holds each frame twice as long.
///
/// The sound is not time-stretched: at a rate other than 1 it is muted, its decoded audio dropped
/// as it comes (queued at 1x it would fill up and stall decoding at 4, or run dry at 0.25), and
/// video stops following the device's clock. Back at 1 the sound resumes where the picture is: a
/// seekable item seeks to the position on screen with its sound; any other (a still, a live stream)
/// stays silent to its end and the sound comes back with the next item's first picture.
extension QueuePlayer {
    func setRate(_ rate: Double) {
        let before = clock.rate
        clock.setRate(rate)
        let after = clock.rate
        statusStore.publish { $0.rate = after }
        guard before != after, let renderer = audioRenderer else { return }
        if after != 1 {
            renderer.discard(below: .max)
            return
        }
        // Everything scheduled so far stays silent; what starts from here on is heard.
        renderer.discard(below: pipelineSerial + 1)
        if let position, let asset = currentAsset, asset.isSeekable, !asset.isStillImage, current != nil {
            begin(SeekRequest(time: position, toleranceBefore: .zero, toleranceAfter: .zero, source: nil, completion: { _ in }))
            return
        }
        // The item after this one is prepared again, with its sound, and its sound waits for its
        // first picture: the silent item's remaining time is not known on the audio thread.
        upcoming?.cancel()
        upcoming = nil
        if current != nil {
            releaseAudioHold()
            holdAudioForFirstPicture()
            prepareUpcoming()
        }
    }
}
