// The program's own code by name, for an escape's report: the await a suspended task waits at (its async frames,
// innermost first: the job header's resume function, then each context's parent's) or the function that made a
// call (the thread's stack). A function is named from the ELF symbol table of the image that holds it (the
// executable exports none of its own) and demangled by the Swift runtime; frames of Swift's own libraries are
// passed over.
#define _GNU_SOURCE
#include "world_hooks.h"
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__linux__) && __SIZEOF_POINTER__ == 8
extern char *swift_demangle(const char *mangled, size_t length, char *output, size_t *output_size, uint32_t flags)
    __attribute__((weak));

// The Swift 6 runtime's 64-bit layout (swift/ABI/Task.h): a Job is 8 words, the last its ResumeTask; an AsyncTask's
// ResumeContext follows it; an AsyncContext begins with its Parent and its ResumeParent.
enum { JOB_RESUME_TASK = 56, TASK_RESUME_CONTEXT = 64, CONTEXT_PARENT = 0, CONTEXT_RESUME_PARENT = 8, MAX_FRAMES = 24 };

typedef struct { uintptr_t address; const char *file; uintptr_t bias; } image_query;

static int find_image(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    image_query *query = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const Elf64_Phdr *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (segment->p_type != PT_LOAD || query->address < start || query->address >= start + segment->p_memsz) continue;
        query->file = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
        query->bias = info->dlpi_addr;
        return 1;
    }
    return 0;
}

// The function symbol of the ELF image `file` (`length` bytes) holding `offset`, into buffer; 0 when none does.
static int symbol_at(const unsigned char *file, size_t length, uintptr_t offset, char *buffer, size_t size) {
    const Elf64_Ehdr *header = (const Elf64_Ehdr *)file;
    if (length < sizeof *header || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_shentsize != sizeof(Elf64_Shdr)
        || header->e_shoff > length || (length - header->e_shoff) / sizeof(Elf64_Shdr) < header->e_shnum) return 0;
    const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + header->e_shoff);
    for (int i = 0; i < header->e_shnum; i++) {
        const Elf64_Shdr *table = &sections[i], *strings = &sections[table->sh_link % header->e_shnum];
        if (table->sh_type != SHT_SYMTAB || table->sh_offset > length || length - table->sh_offset < table->sh_size
            || strings->sh_offset > length || length - strings->sh_offset < strings->sh_size) continue;
        const Elf64_Sym *symbols = (const Elf64_Sym *)(file + table->sh_offset);
        for (size_t s = 0; s < table->sh_size / sizeof(Elf64_Sym); s++) {
            const Elf64_Sym *symbol = &symbols[s];
            if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || offset < symbol->st_value || offset - symbol->st_value >= symbol->st_size
                || symbol->st_name >= strings->sh_size) continue;
            const char *name = (const char *)file + strings->sh_offset + symbol->st_name;
            snprintf(buffer, size, "%.*s", (int)strnlen(name, strings->sh_size - symbol->st_name), name);
            return 1;
        }
    }
    return 0;
}

// The image file a naming has mapped last: the frames of one naming mostly share it, so it is mapped once.
typedef struct { const char *file; void *map; size_t length; } mapped_image;

static void unmap_image(mapped_image *image) {
    if (image->map) munmap(image->map, image->length);
    *image = (mapped_image){NULL, NULL, 0};
}

// Maps `file` into `image`, unless it is mapped there already; 0 when it cannot be read.
static int map_image(mapped_image *image, const char *file) {
    if (image->map && strcmp(image->file, file) == 0) return 1;
    unmap_image(image);
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return 0;
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) *image = (mapped_image){file, map, (size_t)st.st_size};
    }
    close(fd);
    return image->map != NULL;
}

// The mangled name of the function holding `address`, into buffer; 0 when no symbol table names it.
static int mangled_name(mapped_image *image, uintptr_t address, char *buffer, size_t size) {
    image_query query = {address, NULL, 0};
    if (!dl_iterate_phdr(find_image, &query) || !map_image(image, query.file)) return 0;
    return symbol_at(image->map, image->length, address - query.bias, buffer, size);
}

// The program's own Swift function holding `address`, demangled into buffer ("(1) await resume partial function
// for App.pay() async -> ()"); 0 for code of another language, of Swift's libraries, or unnamed.
static int program_function(mapped_image *image, uintptr_t address, char *buffer, size_t size) {
    char mangled[1024];
    if (!swift_demangle || !mangled_name(image, address, mangled, sizeof mangled) || strncmp(mangled, "$s", 2) != 0) return 0;
    size_t length = size;
    if (!swift_demangle(mangled, strlen(mangled), buffer, &length, 0)) return 0;
    // The outermost named function: past a partial function's prefix, a closure's or a conformance's "… in ", a
    // specialization's "… of ", and the words before a qualified name ("static", "merged", "protocol witness for").
    const char *function = strstr(buffer, " function for "), *found;
    function = function ? function + 14 : buffer;
    while ((found = strstr(function, " in "))) function = found + 4;
    if ((found = strstr(function, " of "))) function = found + 4;
    for (const char *space, *dot; (space = strchr(function, ' ')) && (dot = strchr(function, '.')) && space < dot;) function = space + 1;
    static const char *const libraries[] = {"Swift", "Foundation", "FoundationEssentials", "Dispatch", "ServiceSimulation"};
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries; i++) {
        size_t n = strlen(libraries[i]);
        if (strncmp(function, libraries[i], n) == 0 && (function[n] == '.' || function[n] == 0)) return 0;
    }
    return 1;
}

// "(2) await resume partial function for X": 2 and X; a function entered and not resumed since: 0 and the name.
static int await_number(const char *name, const char **function) {
    int number = 0, consumed = 0;
    if (sscanf(name, "(%d) %*s resume partial function for %n", &number, &consumed) == 1 && consumed > 0) {
        *function = name + consumed;
        return number;
    }
    *function = name;
    return 0;
}

int world_hooks_name_last_await(const void *task, char *buffer, size_t size) {
    char name[1024];
    const char *function;
    mapped_image image = {NULL, NULL, 0};
    int named = 0;
    uintptr_t code = *(const uintptr_t *)((const char *)task + JOB_RESUME_TASK);
    const char *context = *(const char *const *)((const char *)task + TASK_RESUME_CONTEXT);
    for (int frame = 0; frame < MAX_FRAMES && code && !named; frame++) {
        if ((named = program_function(&image, code, name, sizeof name))) {
            int number = await_number(name, &function);
            if (number > 0) snprintf(buffer, size, "#%d in %s", number, function);
            else snprintf(buffer, size, "none yet, at the start of %s", function);
        } else if (context) {
            code = *(const uintptr_t *)(context + CONTEXT_RESUME_PARENT);
            context = *(const char *const *)(context + CONTEXT_PARENT);
        } else {
            break;
        }
    }
    unmap_image(&image);
    return named;
}

int world_hooks_name_caller(char *buffer, size_t size) {
    void *frames[MAX_FRAMES];
    char name[1024];
    const char *function;
    mapped_image image = {NULL, NULL, 0};
    int named = 0, count = backtrace(frames, MAX_FRAMES);
    // A return address is one past its call: the call's own byte names the caller.
    for (int i = 1; i < count && !named; i++) {
        if (!(named = program_function(&image, (uintptr_t)frames[i] - 1, name, sizeof name))) continue;
        int number = await_number(name, &function);
        if (number > 0) snprintf(buffer, size, "%s, after its await #%d", function, number);
        else snprintf(buffer, size, "%s", function);
    }
    unmap_image(&image);
    return named;
}
#else
int world_hooks_name_last_await(const void *task, char *buffer, size_t size) { (void)task; (void)buffer; (void)size; return 0; }
int world_hooks_name_caller(char *buffer, size_t size) { (void)buffer; (void)size; return 0; }
#endif
