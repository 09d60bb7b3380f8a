"""The Graphite fonts and texts of conformance/conform.toml, read through
conformance/report/config.py as scripts/conform reads them (shared by the
CLI tests that compare fontvm with the reference tools)."""
import os
import sys


def font_texts(src):
    """Sorted (font, text) pairs of the default feature setting: the
    corpus's own texts; the generated ones (build/gen-texts) are the
    conformance run's, where engine differences are reported."""
    sys.path.insert(0, os.path.join(src, "conformance", "report"))
    import config as cfgmod
    cfg = cfgmod.load(os.path.join(src, "conformance", "conform.toml"))
    generated = os.path.join(src, cfgmod.GENERATED_DIR) + os.sep
    return sorted({(j.font, j.texts) for j in cfgmod.build_jobs(cfg, src, engines=("gr",))
                   if not j.features and not os.path.abspath(j.texts).startswith(generated)})
