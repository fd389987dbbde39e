// Translation of libdyng's C++ exceptions into the Python error classes of dyng._errors.
//
// The classes are defined in Python (so that the CPU module and every plugin raise the same
// classes) and handed over once by `_register_error_classes`, which the package calls when it
// activates the native module. Until then the translator falls back to the nearest builtin.
#include <new>
#include <stdexcept>
#include <string>

#include <nanobind/stl/string.h>

#include "dyng/core/errors.hpp"
#include "module.hpp"

namespace nb = nanobind;

namespace dyng::bindings {
namespace {

/// Strong references, deliberately never released: they must outlive every translated exception
/// and dropping them at interpreter exit would race the module's own teardown.
struct error_classes_t {
  PyObject* error = nullptr;
  PyObject* invalid_argument = nullptr;
  PyObject* stale_result = nullptr;
  PyObject* not_supported = nullptr;
  PyObject* capacity = nullptr;
  PyObject* convergence = nullptr;
  PyObject* internal = nullptr;
  PyObject* out_of_memory = nullptr;
  PyObject* cuda = nullptr;
  PyObject* file_format = nullptr;
};

error_classes_t g_classes;

PyObject* pick(PyObject* registered, PyObject* fallback) {
  return registered != nullptr ? registered : fallback;
}

void take(nb::dict classes, const char* name, PyObject*& slot) {
  if (!classes.contains(name)) {
    throw nb::key_error((std::string("_register_error_classes(): missing class '") + name +
                         "'; pass every class of dyng._errors")
                            .c_str());
  }
  nb::object cls = classes[name];
  if (!PyType_Check(cls.ptr()) || !PyObject_IsSubclass(cls.ptr(), PyExc_Exception)) {
    throw nb::type_error((std::string("_register_error_classes(): '") + name +
                          "' is not an exception class; pass the classes of dyng._errors")
                             .c_str());
  }
  PyObject* old = slot;
  slot = cls.inc_ref().ptr();
  Py_XDECREF(old);
}

void register_classes(nb::dict classes) {
  take(classes, "Error", g_classes.error);
  take(classes, "InvalidArgumentError", g_classes.invalid_argument);
  take(classes, "StaleResultError", g_classes.stale_result);
  take(classes, "NotSupportedError", g_classes.not_supported);
  take(classes, "CapacityError", g_classes.capacity);
  take(classes, "ConvergenceError", g_classes.convergence);
  take(classes, "InternalError", g_classes.internal);
  take(classes, "OutOfMemoryError", g_classes.out_of_memory);
  take(classes, "CudaError", g_classes.cuda);
  take(classes, "FileFormatError", g_classes.file_format);
}

/// CudaError carries the CUDA status code as `code`, so it is built by calling the class.
void raise_cuda_error(const cuda_error& e) {
  if (g_classes.cuda == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return;
  }
  PyObject* exc = PyObject_CallFunction(g_classes.cuda, "si", e.what(), e.code());
  if (exc == nullptr) return;  // The constructor's own error is the one to report.
  PyErr_SetObject(g_classes.cuda, exc);
  Py_DECREF(exc);
}

/// FileFormatError carries path, line and column (None where unknown, i.e. 0).
void raise_file_format_error(const file_format_error& e) {
  if (g_classes.file_format == nullptr) {
    PyErr_SetString(PyExc_OSError, e.what());
    return;
  }
  nb::object none = nb::none();
  nb::object line = e.line() > 0 ? nb::int_(e.line()) : none;
  nb::object column = e.column() > 0 ? nb::int_(e.column()) : none;
  // A path need not be UTF-8: decode both texts leniently rather than fail on them.
  const std::string what = e.what();
  nb::object message = nb::steal(
      PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()), "backslashreplace"));
  nb::object path = nb::steal(
      PyUnicode_DecodeFSDefaultAndSize(e.path().data(), static_cast<Py_ssize_t>(e.path().size())));
  if (!message.is_valid() || !path.is_valid()) return;
  PyObject* exc = PyObject_CallFunctionObjArgs(g_classes.file_format, message.ptr(), path.ptr(),
                                               line.ptr(), column.ptr(), nullptr);
  if (exc == nullptr) return;  // The constructor's own error is the one to report.
  PyErr_SetObject(g_classes.file_format, exc);
  Py_DECREF(exc);
}

void translate(const std::exception_ptr& p, void*) {
  // Most derived first: stale_result_error is an invalid_argument_error.
  try {
    std::rethrow_exception(p);
  } catch (const stale_result_error& e) {
    PyErr_SetString(pick(g_classes.stale_result, PyExc_ValueError), e.what());
  } catch (const invalid_argument_error& e) {
    PyErr_SetString(pick(g_classes.invalid_argument, PyExc_ValueError), e.what());
  } catch (const not_supported_error& e) {
    PyErr_SetString(pick(g_classes.not_supported, PyExc_NotImplementedError), e.what());
  } catch (const capacity_error& e) {
    PyErr_SetString(pick(g_classes.capacity, PyExc_MemoryError), e.what());
  } catch (const convergence_error& e) {
    PyErr_SetString(pick(g_classes.convergence, PyExc_RuntimeError), e.what());
  } catch (const internal_error& e) {
    PyErr_SetString(pick(g_classes.internal, PyExc_RuntimeError), e.what());
  } catch (const out_of_memory_error& e) {
    PyErr_SetString(pick(g_classes.out_of_memory, PyExc_MemoryError), e.what());
  } catch (const cuda_error& e) {
    raise_cuda_error(e);
  } catch (const file_format_error& e) {
    raise_file_format_error(e);
  } catch (const error& e) {
    PyErr_SetString(pick(g_classes.error, PyExc_RuntimeError), e.what());
  } catch (const std::bad_alloc&) {
    PyErr_SetString(pick(g_classes.out_of_memory, PyExc_MemoryError),
                    "dyng: a host allocation failed (std::bad_alloc); free memory or use a "
                    "smaller graph");
  } catch (const std::length_error& e) {
    // A container asked for more than max_size(): a size limit, not a transient failure.
    PyErr_SetString(pick(g_classes.capacity, PyExc_MemoryError),
                    (std::string("dyng: a container exceeded its size limit (") + e.what() +
                     "); use a smaller graph or wider id types")
                        .c_str());
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  nb::register_exception_translator(&translate);
  m.def("_register_error_classes", &register_classes, nb::arg("classes"),
        "Hands the Python error classes (name -> class) to the translator. Called once by "
        "dyng._backend when this module is activated.");
}

}  // namespace dyng::bindings
