"""The pure scoring core: no Qt, no store. numpy and sacrebleu; heavy libraries inside functions."""
